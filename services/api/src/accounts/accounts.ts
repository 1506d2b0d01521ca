// Owner accounts: registering (fresh, or completing an invitation), signing in, and what admins do
// to accounts (invite, change the subscription, delete). The account's history is the user stream;
// the email and password hash are a credential row written in the same transaction as the events
// (a hook of the append), so an account never exists without its credential or the other way round.
import { randomUUID } from 'node:crypto';
import {
  EmailTakenError,
  UserNotFoundError,
  decideUser,
  userDecider,
  userEventTypes,
  userStreamId,
  type DomainEvent,
  type SubscriptionStatus,
  type SubscriptionTier,
  type UserEvent,
  type UserLimits,
} from '@consentry/events';
import type { Db, DbTransaction, InlineHandler, StoredEvent } from '@consentry/infra';
import { getSubscriptionPlan, getUser, listWebsites, type User } from '@consentry/projections';
import { findUserCredentialByEmail } from '../auth/credentials';
import type { PasswordHasher } from '../auth/passwords';
import { endUserSessions } from '../auth/session-store';
import { ApiError } from '../errors';
import { appendDecision, loadStream } from '../domain/streams';
import { removeWebsite } from '../websites/websites';

/** The free plan's limits when the plans were never published (they are seeded at start). */
export const fallbackStartingPlan: UserLimits = { subscriptionTier: 'free', maxWebsites: 1, maxConsentsPerMonth: 10_000 };

const isUserEvent = (event: DomainEvent): event is UserEvent => (userEventTypes as readonly string[]).includes(event.type);

const UNIQUE_VIOLATION = '23505';

function isEmailTaken(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === UNIQUE_VIOLATION &&
    'constraint' in error &&
    error.constraint === 'user_credentials_email_key'
  );
}

/** Emails compare case-insensitively; they are stored lower-cased. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

function hook(name: string, canHandle: InlineHandler['canHandle'], apply: (events: readonly StoredEvent[], tx: DbTransaction) => Promise<void>): InlineHandler {
  return { name, canHandle, apply };
}

export interface AccountsDeps {
  readonly pool: Db;
  readonly hasher: PasswordHasher;
}

export interface Registration {
  readonly email: string;
  readonly password: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
}

async function startingPlan(pool: Db): Promise<UserLimits> {
  const free = await getSubscriptionPlan(pool, 'free');
  return free ? { subscriptionTier: 'free', maxWebsites: free.maxWebsites, maxConsentsPerMonth: free.maxConsentsPerMonth } : fallbackStartingPlan;
}

async function requireUserRow(pool: Db, userId: string): Promise<User> {
  const user = await getUser(pool, userId);
  if (!user) throw new UserNotFoundError();
  return user;
}

/** Creates an owner account, or completes the invitation sent to this email. */
export async function registerUser({ pool, hasher }: AccountsDeps, registration: Registration): Promise<User> {
  const email = normaliseEmail(registration.email);
  const passwordHash = await hasher.hash(registration.password);
  const credential = await findUserCredentialByEmail(pool, email);
  if (credential?.passwordHash) throw new EmailTakenError();
  const userId = credential?.userId ?? randomUUID();
  const streamId = userStreamId(userId);
  const { state, version } = await loadStream(pool, streamId, userDecider, isUserEvent);
  const events = decideUser(
    {
      type: 'RegisterUser',
      data: { userId, email, firstName: registration.firstName, lastName: registration.lastName, startingPlan: await startingPlan(pool) },
      metadata: { now: new Date().toISOString() },
    },
    state,
  );
  const writeCredential = hook('account-credentials', ['UserRegistered'], async (_events, tx) => {
    if (credential) {
      const completed = await tx.query({
        name: 'complete-invited-credential',
        text: 'UPDATE user_credentials SET password_hash = $2, updated_at = now() WHERE user_id = $1 AND password_hash IS NULL',
        values: [userId, passwordHash],
      });
      // Someone completed this invitation a moment ago.
      if (completed.rowCount !== 1) throw new EmailTakenError();
    } else {
      await tx.query({
        name: 'create-user-credential',
        text: 'INSERT INTO user_credentials (user_id, email, password_hash) VALUES ($1, $2, $3)',
        values: [userId, email, passwordHash],
      });
    }
  });
  try {
    await appendDecision(pool, streamId, events, { expectedVersion: version, hooks: [writeCredential], metadata: { actor: userId } });
  } catch (error) {
    if (isEmailTaken(error)) throw new EmailTakenError();
    throw error;
  }
  return requireUserRow(pool, userId);
}

export class AccountDisabledError extends ApiError {
  constructor() {
    super(403, 'ACCOUNT_DISABLED', 'This account is switched off; contact your administrator');
  }
}

/**
 * The owner with this email and password, or null. An unknown email costs as much time as a wrong
 * password. A right password for a switched-off account is refused with AccountDisabledError.
 */
export async function authenticateUser({ pool, hasher }: AccountsDeps, emailGiven: string, password: string): Promise<User | null> {
  const credential = await findUserCredentialByEmail(pool, normaliseEmail(emailGiven));
  if (!credential?.passwordHash) return hasher.verifyNothing(password).then(() => null);
  if (!(await hasher.verify(credential.passwordHash, password))) return null;
  const user = await getUser(pool, credential.userId);
  if (!user || user.status !== 'registered') return null;
  if (!user.isActive) throw new AccountDisabledError();
  return user;
}

export interface Invitation extends UserLimits {
  readonly email: string;
}

/** An invited account: the person completes it by registering with this email. */
export async function inviteUser(pool: Db, invitation: Invitation, invitedBy: string): Promise<User> {
  const email = normaliseEmail(invitation.email);
  if (await findUserCredentialByEmail(pool, email)) throw new EmailTakenError();
  const userId = randomUUID();
  const events = decideUser(
    {
      type: 'InviteUser',
      data: {
        userId,
        email,
        invitedBy,
        subscriptionTier: invitation.subscriptionTier,
        maxWebsites: invitation.maxWebsites,
        maxConsentsPerMonth: invitation.maxConsentsPerMonth,
      },
      metadata: { now: new Date().toISOString() },
    },
    userDecider.initialState(),
  );
  const reserveEmail = hook('account-credentials', ['UserInvited'], async (_events, tx) => {
    await tx.query({ name: 'create-invited-credential', text: 'INSERT INTO user_credentials (user_id, email) VALUES ($1, $2)', values: [userId, email] });
  });
  try {
    await appendDecision(pool, userStreamId(userId), events, { expectedVersion: 0, hooks: [reserveEmail], metadata: { actor: invitedBy } });
  } catch (error) {
    if (isEmailTaken(error)) throw new EmailTakenError();
    throw error;
  }
  return requireUserRow(pool, userId);
}

export interface SubscriptionChange {
  readonly subscriptionTier: SubscriptionTier;
  readonly subscriptionStatus: SubscriptionStatus;
  readonly maxWebsites: number;
  readonly maxConsentsPerMonth: number;
  readonly isActive: boolean;
}

/** An admin's edit of a user; switching an account off ends its sessions in the same transaction. */
export async function changeUserSubscription(pool: Db, userId: string, change: SubscriptionChange, changedBy: string): Promise<User> {
  const streamId = userStreamId(userId);
  const { state, version } = await loadStream(pool, streamId, userDecider, isUserEvent);
  const events = decideUser({ type: 'ChangeUserSubscription', data: { userId, ...change }, metadata: { now: new Date().toISOString() } }, state);
  const endSessionsWhenSwitchedOff = hook('account-sessions', ['UserActivationChanged'], async (stored, tx) => {
    for (const event of stored) {
      if (event.type === 'UserActivationChanged' && !event.data.isActive) await endUserSessions(tx, event.data.userId);
    }
  });
  await appendDecision(pool, streamId, events, { expectedVersion: version, hooks: [endSessionsWhenSwitchedOff], metadata: { actor: changedBy } });
  return requireUserRow(pool, userId);
}

/**
 * Deletes an account: its websites are removed first (a retry after a failure carries on), then
 * UserDeleted is recorded together with the end of its credential and sessions.
 */
export async function deleteUser(pool: Db, userId: string, deletedBy: string): Promise<void> {
  const streamId = userStreamId(userId);
  const before = await loadStream(pool, streamId, userDecider, isUserEvent);
  // Refuses an unknown or already deleted user before anything is removed.
  decideUser({ type: 'DeleteUser', data: { userId }, metadata: { now: new Date().toISOString() } }, before.state);
  for (const website of await listWebsites(pool, userId)) {
    await removeWebsite(pool, website.id, { kind: 'admin', username: deletedBy });
  }
  const { state, version } = await loadStream(pool, streamId, userDecider, isUserEvent);
  const events = decideUser({ type: 'DeleteUser', data: { userId }, metadata: { now: new Date().toISOString() } }, state);
  const forgetAccount = hook('account-credentials', ['UserDeleted'], async (_events, tx) => {
    await tx.query({ name: 'delete-user-credential', text: 'DELETE FROM user_credentials WHERE user_id = $1', values: [userId] });
    await endUserSessions(tx, userId);
  });
  await appendDecision(pool, streamId, events, { expectedVersion: version, hooks: [forgetAccount], metadata: { actor: deletedBy } });
}
