// What owners change about their own account: their name (UserNameChanged on the user stream,
// through the user decider) and their password (a credential row: secrets are not history). A new
// password must be strong (password-strength.ts) and ends the owner's other sessions.
import { UserNotFoundError, userDecider, userStreamId } from '@consentry/events';
import { withTransaction, type Db } from '@consentry/infra';
import { getUser, type User } from '@consentry/projections';
import { findUserPasswordHash, replaceUserPasswordHash } from '../auth/credentials';
import type { PasswordHasher } from '../auth/passwords';
import { assertStrongPassword } from '../auth/password-strength';
import { endUserSessions } from '../auth/session-store';
import { ApiError } from '../errors';
import { handleApiCommand } from '../domain/commands';

export interface PersonName {
  readonly firstName: string | null;
  readonly lastName: string | null;
}

/** The owner's new name (the same name again records nothing). */
export async function renameUser(pool: Db, userId: string, name: PersonName): Promise<User> {
  await handleApiCommand(
    pool,
    userStreamId(userId),
    userDecider,
    { type: 'ChangeUserName', data: { userId, ...name }, metadata: { now: new Date().toISOString() } },
    { metadata: { actor: userId } },
  );
  const user = await getUser(pool, userId);
  if (!user) throw new UserNotFoundError();
  return user;
}

export class WrongPasswordError extends ApiError {
  constructor() {
    super(400, 'WRONG_PASSWORD', 'The current password is not correct: type the password you sign in with now');
  }
}

export class SamePasswordError extends ApiError {
  constructor() {
    super(400, 'SAME_PASSWORD', 'Choose a new password, not the current one');
  }
}

/**
 * Replaces the owner's password after checking the current one, and ends every session of the
 * owner (the caller starts a fresh one for the browser that asked), in one transaction.
 */
export async function changeUserPassword(
  { pool, hasher }: { readonly pool: Db; readonly hasher: PasswordHasher },
  user: User,
  currentPassword: string,
  newPassword: string,
): Promise<void> {
  const passwordHash = await findUserPasswordHash(pool, user.id);
  if (passwordHash === null) throw new UserNotFoundError();
  if (!(await hasher.verify(passwordHash, currentPassword))) throw new WrongPasswordError();
  if (newPassword === currentPassword) throw new SamePasswordError();
  assertStrongPassword(newPassword, [user.email, user.firstName, user.lastName]);
  const newHash = await hasher.hash(newPassword);
  await withTransaction(pool, async (tx) => {
    if (!(await replaceUserPasswordHash(tx, user.id, newHash))) throw new UserNotFoundError();
    await endUserSessions(tx, user.id);
  });
}
