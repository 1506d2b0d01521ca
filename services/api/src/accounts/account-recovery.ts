// Owners' account self-service by link: resetting a forgotten password (a link emailed on request,
// or created by an admin to hand over), moving to a new email (a link sent to the new address) and
// deleting the account. Links carry random tokens of which only the SHA-256 is stored (migration
// 027); each works once and until it expires. Email changes are UserEmailChanged on the user stream.
import { randomBytes } from 'node:crypto';
import { EmailTakenError, UserNotFoundError, userDecider, userStreamId } from '@consentry/events';
import { withTransaction, type Db, type DbTransaction, type InlineHandler, type StoredEvent } from '@consentry/infra';
import { getUser, type User } from '@consentry/projections';
import { findUserCredentialByEmail, findUserPasswordHash, replaceUserPasswordHash } from '../auth/credentials';
import type { PasswordHasher } from '../auth/passwords';
import { assertStrongPassword } from '../auth/password-strength';
import { endUserSessions } from '../auth/session-store';
import { handleApiCommand } from '../domain/commands';
import { ApiError } from '../errors';
import { WrongPasswordError } from './account-settings';
import { deleteUser, hashToken, isEmailTaken, normaliseEmail } from './accounts';

/** How long a reset link works: an emailed one briefly; one an admin hands over long enough to reach its owner. */
export const passwordResetLifetimeMinutes = { emailed: 60, handedOver: 24 * 60 } as const;
/** How long the link confirming a new email works. */
export const emailChangeLifetimeHours = 24;

const newToken = () => randomBytes(32).toString('base64url');

export interface AccountDeps {
  readonly pool: Db;
  readonly hasher: PasswordHasher;
}

export class PasswordResetInvalidError extends ApiError {
  constructor() {
    super(400, 'RESET_LINK_INVALID', 'This password reset link is not valid any more (used, expired or replaced); ask for a new one');
  }
}

export class EmailChangeInvalidError extends ApiError {
  constructor() {
    super(400, 'EMAIL_CHANGE_LINK_INVALID', 'This confirmation link is not valid any more (used, expired or replaced); change your email on the Account page again to get a new one');
  }
}

export class NotRegisteredError extends ApiError {
  constructor() {
    super(409, 'NOT_REGISTERED', 'This user has not completed sign-up yet: send them a new invitation instead');
  }
}

export class AccountSwitchedOffError extends ApiError {
  constructor() {
    super(409, 'ACCOUNT_DISABLED', 'This account is switched off: switch it on first, then create the link');
  }
}

/** Without SMTP_URL nothing can reach an address: said the same way whatever was asked about. */
export class EmailNotSetUpError extends ApiError {
  constructor(what: string) {
    super(409, 'EMAIL_NOT_SET_UP', `Email is not set up on this server, so ${what}`);
  }
}

export class SameEmailError extends ApiError {
  constructor() {
    super(400, 'SAME_EMAIL', 'This is already your email: type the new address');
  }
}

export interface IssuedLink {
  readonly token: string;
  readonly expiresAt: string;
}

/** A new reset link for a registered owner, replacing any earlier one. */
async function issuePasswordReset(db: Db | DbTransaction, userId: string, createdBy: string, lifetimeMinutes: number): Promise<IssuedLink> {
  const token = newToken();
  await db.query({ name: 'drop-password-reset-tokens', text: 'DELETE FROM password_reset_tokens WHERE user_id = $1', values: [userId] });
  const { rows } = await db.query<{ expires_at: Date }>({
    name: 'issue-password-reset-token',
    text: `INSERT INTO password_reset_tokens (token_hash, user_id, created_by, expires_at)
           VALUES ($1, $2, $3, now() + make_interval(mins => $4)) RETURNING expires_at`,
    values: [hashToken(token), userId, createdBy, lifetimeMinutes],
  });
  return { token, expiresAt: rows[0]!.expires_at.toISOString() };
}

/**
 * The emailed reset link for the account with this email, or null when there is none to reset (no
 * such account, an invitation not accepted, a switched-off account): the caller answers alike.
 */
export async function requestPasswordReset(pool: Db, emailGiven: string): Promise<(IssuedLink & { readonly email: string }) | null> {
  const credential = await findUserCredentialByEmail(pool, normaliseEmail(emailGiven));
  if (!credential?.passwordHash) return null;
  const user = await getUser(pool, credential.userId);
  if (!user || user.status !== 'registered' || !user.isActive) return null;
  const link = await withTransaction(pool, (tx) => issuePasswordReset(tx, user.id, user.id, passwordResetLifetimeMinutes.emailed));
  return { ...link, email: credential.email };
}

/** An admin's reset link for an owner, to hand over (works where no email can be sent). */
export async function createPasswordResetLink(pool: Db, userId: string, createdBy: string): Promise<IssuedLink> {
  const user = await getUser(pool, userId);
  if (!user) throw new UserNotFoundError();
  if (user.status !== 'registered') throw new NotRegisteredError();
  // Its link would be refused when opened: a switched-off account cannot sign in.
  if (!user.isActive) throw new AccountSwitchedOffError();
  return withTransaction(pool, (tx) => issuePasswordReset(tx, userId, createdBy, passwordResetLifetimeMinutes.handedOver));
}

export interface PendingPasswordReset {
  readonly user: User;
  readonly expiresAt: string;
}

/** The owner a reset link is for, while it works; null otherwise. */
export async function findPasswordReset(pool: Db, token: string): Promise<PendingPasswordReset | null> {
  const { rows } = await pool.query<{ user_id: string; expires_at: Date }>({
    name: 'find-password-reset',
    text: 'SELECT user_id, expires_at FROM password_reset_tokens WHERE token_hash = $1 AND expires_at > now()',
    values: [hashToken(token)],
  });
  const row = rows[0];
  if (!row) return null;
  const user = await getUser(pool, row.user_id);
  if (!user || user.status !== 'registered' || !user.isActive) return null;
  return { user, expiresAt: row.expires_at.toISOString() };
}

/**
 * Sets a new password through a reset link: the link is used up, and every session of the owner
 * ends, in one transaction (the caller signs the browser that asked in afresh).
 */
export async function resetPassword({ pool, hasher }: AccountDeps, token: string, newPassword: string): Promise<User> {
  const reset = await findPasswordReset(pool, token);
  if (!reset) throw new PasswordResetInvalidError();
  const { user } = reset;
  assertStrongPassword(newPassword, [user.email, user.firstName, user.lastName]);
  const newHash = await hasher.hash(newPassword);
  await withTransaction(pool, async (tx) => {
    // A second use, or a race with another, finds the row gone.
    const used = await tx.query({
      name: 'use-password-reset-token',
      text: 'DELETE FROM password_reset_tokens WHERE token_hash = $1 AND user_id = $2 AND expires_at > now()',
      values: [hashToken(token), user.id],
    });
    if (used.rowCount !== 1) throw new PasswordResetInvalidError();
    if (!(await replaceUserPasswordHash(tx, user.id, newHash))) throw new PasswordResetInvalidError();
    await endUserSessions(tx, user.id);
  });
  return user;
}

async function checkCurrentPassword({ pool, hasher }: AccountDeps, userId: string, currentPassword: string): Promise<void> {
  const passwordHash = await findUserPasswordHash(pool, userId);
  if (passwordHash === null) throw new UserNotFoundError();
  if (!(await hasher.verify(passwordHash, currentPassword))) throw new WrongPasswordError();
}

/**
 * A link confirming a new email for the owner (replacing an earlier one), after checking their
 * password. An address that has an account (or an invitation) is refused: the owner proved who
 * they are, and they need to know why the change cannot happen.
 */
export async function requestEmailChange(deps: AccountDeps, user: User, currentPassword: string, newEmailGiven: string): Promise<IssuedLink & { readonly email: string }> {
  await checkCurrentPassword(deps, user.id, currentPassword);
  const email = normaliseEmail(newEmailGiven);
  if (email === user.email) throw new SameEmailError();
  if (await findUserCredentialByEmail(deps.pool, email)) throw new EmailTakenError();
  const token = newToken();
  const { rows } = await deps.pool.query<{ expires_at: Date }>({
    name: 'upsert-email-change-token',
    text: `INSERT INTO email_change_tokens (token_hash, user_id, new_email, expires_at)
           VALUES ($1, $2, $3, now() + make_interval(hours => $4))
           ON CONFLICT (user_id) DO UPDATE
             SET token_hash = EXCLUDED.token_hash, new_email = EXCLUDED.new_email, created_at = now(), expires_at = EXCLUDED.expires_at
           RETURNING expires_at`,
    values: [hashToken(token), user.id, email, emailChangeLifetimeHours],
  });
  return { token, email, expiresAt: rows[0]!.expires_at.toISOString() };
}

function hook(name: string, canHandle: InlineHandler['canHandle'], apply: (events: readonly StoredEvent[], tx: DbTransaction) => Promise<void>): InlineHandler {
  return { name, canHandle, apply };
}

/**
 * Moves the owner to the address a confirmation link was sent to: UserEmailChanged is recorded with
 * the credential's new email and the link used up in the same transaction. Reset links sent to the
 * old address stop working. Answers the owner as now, and the address they had.
 */
export async function confirmEmailChange(pool: Db, token: string): Promise<{ readonly user: User; readonly previousEmail: string }> {
  const { rows } = await pool.query<{ user_id: string; new_email: string }>({
    name: 'find-email-change',
    text: 'SELECT user_id, new_email FROM email_change_tokens WHERE token_hash = $1 AND expires_at > now()',
    values: [hashToken(token)],
  });
  const pending = rows[0];
  if (!pending) throw new EmailChangeInvalidError();
  const before = await getUser(pool, pending.user_id);
  if (!before || before.status !== 'registered') throw new EmailChangeInvalidError();
  const moveCredential = hook('account-credentials', ['UserEmailChanged'], async (_events, tx) => {
    const used = await tx.query({
      name: 'use-email-change-token',
      text: 'DELETE FROM email_change_tokens WHERE token_hash = $1 AND user_id = $2 AND expires_at > now()',
      values: [hashToken(token), pending.user_id],
    });
    if (used.rowCount !== 1) throw new EmailChangeInvalidError();
    await tx.query({
      name: 'change-user-credential-email',
      text: 'UPDATE user_credentials SET email = $2, updated_at = now() WHERE user_id = $1',
      values: [pending.user_id, pending.new_email],
    });
    await tx.query({ name: 'drop-password-reset-tokens', text: 'DELETE FROM password_reset_tokens WHERE user_id = $1', values: [pending.user_id] });
  });
  try {
    await handleApiCommand(
      pool,
      userStreamId(pending.user_id),
      userDecider,
      { type: 'ChangeUserEmail', data: { userId: pending.user_id, email: pending.new_email }, metadata: { now: new Date().toISOString() } },
      { hooks: [moveCredential], metadata: { actor: pending.user_id } },
    );
  } catch (error) {
    // Someone took the address meanwhile: the link can never work now.
    if (isEmailTaken(error)) {
      await pool.query({ name: 'drop-email-change-token', text: 'DELETE FROM email_change_tokens WHERE token_hash = $1', values: [hashToken(token)] });
      throw new EmailTakenError();
    }
    throw error;
  }
  const user = await getUser(pool, pending.user_id);
  if (!user) throw new EmailChangeInvalidError();
  return { user, previousEmail: before.email };
}

/**
 * The owner deletes their own account after giving their password again: their websites are removed
 * and UserDeleted recorded with the end of their credential, links and sessions (deleteUser).
 */
export async function deleteOwnAccount(deps: AccountDeps, user: User, currentPassword: string): Promise<void> {
  await checkCurrentPassword(deps, user.id, currentPassword);
  await deleteUser(deps.pool, user.id, user.id, 'owner');
}
