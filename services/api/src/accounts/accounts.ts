// Owner accounts: registering (fresh, or completing an invitation), signing in, and what admins do
// to accounts (invite, change the subscription, delete). The account's history is the user stream;
// the email and password hash are a credential row written in the same transaction as the events
// (a hook of the append), so an account never exists without its credential or the other way round.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  EmailTakenError,
  ownerErasurePatchOf,
  UserNotFoundError,
  userDecider,
  userStreamId,
  type SubscriptionStatus,
  type SubscriptionTier,
  type UserLimits,
} from '@consentry/events';
import {
  aggregateStream,
  appendInTransaction,
  eventDigest,
  sealedEventColumns,
  toSealedEvent,
  withTransaction,
  type Db,
  type DbTransaction,
  type InlineHandler,
  type SealedEventRow,
  type StoredEvent,
} from '@consentry/infra';
import { getSubscriptionPlan, getUser, listWebsites, type User } from '@consentry/projections';
import { findUserCredentialByEmail } from '../auth/credentials';
import type { PasswordHasher } from '../auth/passwords';
import { endUserSessions } from '../auth/session-store';
import { ApiError } from '../errors';
import { handleApiCommand } from '../domain/commands';
import { removeWebsite } from '../websites/websites';

/** The free plan's limits when the plans were never published (they are seeded at start). */
export const fallbackStartingPlan: UserLimits = { subscriptionTier: 'free', maxWebsites: 1, maxConsentsPerMonth: 10_000 };

const UNIQUE_VIOLATION = '23505';

export function isEmailTaken(error: unknown): boolean {
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

/** The limits an invitation starts with: its tier's published plan, else the free plan's. */
async function invitationLimits(pool: Db, invitation: Invitation): Promise<UserLimits> {
  const plan = (await getSubscriptionPlan(pool, invitation.subscriptionTier)) ?? (await startingPlan(pool));
  return {
    subscriptionTier: invitation.subscriptionTier,
    maxWebsites: invitation.maxWebsites ?? plan.maxWebsites,
    maxConsentsPerMonth: invitation.maxConsentsPerMonth ?? plan.maxConsentsPerMonth,
  };
}

async function requireUserRow(pool: Db, userId: string): Promise<User> {
  const user = await getUser(pool, userId);
  if (!user) throw new UserNotFoundError();
  return user;
}

/**
 * Creates an owner account. An email that has an account, or an invitation waiting, is taken: an
 * invitation is completed only through its link (acceptInvitation), never by whoever registers
 * the email first.
 */
export async function registerUser({ pool, hasher }: AccountsDeps, registration: Registration): Promise<User> {
  const email = normaliseEmail(registration.email);
  const passwordHash = await hasher.hash(registration.password);
  if (await findUserCredentialByEmail(pool, email)) throw new EmailTakenError();
  return completeRegistration(pool, { userId: randomUUID(), email, passwordHash, registration, invitation: null });
}

async function completeRegistration(
  pool: Db,
  {
    userId,
    email,
    passwordHash,
    registration,
    invitation,
    confirmation,
  }: {
    userId: string;
    email: string;
    passwordHash: string;
    registration: Omit<Registration, 'email' | 'password'>;
    invitation: Buffer | null;
    /** A pending registration's token hash: used up in the same transaction. */
    confirmation?: Buffer;
  },
): Promise<User> {
  const register = {
    type: 'RegisterUser',
    data: { userId, email, firstName: registration.firstName, lastName: registration.lastName, startingPlan: await startingPlan(pool) },
    metadata: { now: new Date().toISOString() },
  } as const;
  const writeCredential = hook('account-credentials', ['UserRegistered'], async (_events, tx) => {
    if (invitation) {
      // The link is used up in the same transaction; a second use (or a race) finds it gone.
      const used = await tx.query({
        name: 'use-invitation-token',
        text: `UPDATE invitation_tokens SET used_at = now()
                WHERE token_hash = $1 AND user_id = $2 AND used_at IS NULL AND expires_at > now()`,
        values: [invitation, userId],
      });
      const completed = await tx.query({
        name: 'complete-invited-credential',
        text: 'UPDATE user_credentials SET password_hash = $2, updated_at = now() WHERE user_id = $1 AND password_hash IS NULL',
        values: [userId, passwordHash],
      });
      if (used.rowCount !== 1 || completed.rowCount !== 1) throw new InvitationInvalidError();
    } else {
      if (confirmation) {
        const used = await tx.query({ name: 'use-pending-registration', text: 'DELETE FROM pending_registrations WHERE token_hash = $1 AND expires_at > now()', values: [confirmation] });
        if (used.rowCount !== 1) throw new ConfirmationInvalidError();
      }
      await tx.query({
        name: 'create-user-credential',
        text: 'INSERT INTO user_credentials (user_id, email, password_hash) VALUES ($1, $2, $3)',
        values: [userId, email, passwordHash],
      });
    }
  });
  try {
    await handleApiCommand(pool, userStreamId(userId), userDecider, register, { hooks: [writeCredential], metadata: { actor: userId } });
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

export interface Invitation {
  readonly email: string;
  readonly subscriptionTier: SubscriptionTier;
  /** Left out: the tier's plan's limit, or the free plan's when the tier has no plan. */
  readonly maxWebsites?: number | undefined;
  readonly maxConsentsPerMonth?: number | undefined;
}

/** How long an invitation link stays valid. */
export const invitationLifetimeDays = 7;

export class InvitationInvalidError extends ApiError {
  constructor() {
    super(400, 'INVITATION_INVALID', 'This invitation link is not valid any more (used, expired or replaced); ask your administrator for a new one');
  }
}

export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** A new link for an invited user, replacing any earlier one (inside the caller's transaction). */
async function issueInvitationToken(tx: DbTransaction, userId: string, createdBy: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.query({ name: 'drop-invitation-tokens', text: 'DELETE FROM invitation_tokens WHERE user_id = $1', values: [userId] });
  await tx.query({
    name: 'issue-invitation-token',
    text: `INSERT INTO invitation_tokens (token_hash, user_id, created_by, expires_at)
           VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
    values: [hashToken(token), userId, createdBy, invitationLifetimeDays],
  });
  return token;
}

export interface PendingInvitation {
  readonly userId: string;
  readonly email: string;
  readonly expiresAt: string;
}

/** The invitation a link stands for, while it can still be accepted; null otherwise. */
export async function findInvitation(db: Db, token: string): Promise<PendingInvitation | null> {
  const { rows } = await db.query<{ user_id: string; email: string; expires_at: Date }>({
    name: 'find-invitation',
    text: `SELECT t.user_id, c.email, t.expires_at FROM invitation_tokens t JOIN user_credentials c USING (user_id)
            WHERE t.token_hash = $1 AND t.used_at IS NULL AND t.expires_at > now() AND c.password_hash IS NULL`,
    values: [hashToken(token)],
  });
  const row = rows[0];
  return row ? { userId: row.user_id, email: row.email, expiresAt: row.expires_at.toISOString() } : null;
}

/** Completes an invited account through its link: the password is set and the link used up. */
export async function acceptInvitation(
  { pool, hasher }: AccountsDeps,
  token: string,
  registration: Omit<Registration, 'email'>,
): Promise<User> {
  const passwordHash = await hasher.hash(registration.password);
  const invitation = await findInvitation(pool, token);
  if (!invitation) throw new InvitationInvalidError();
  return completeRegistration(pool, { userId: invitation.userId, email: invitation.email, passwordHash, registration, invitation: hashToken(token) });
}

/** A new link for someone invited who has not accepted yet (the old link stops working). */
export async function renewInvitation(pool: Db, userId: string, renewedBy: string): Promise<string> {
  const user = await requireUserRow(pool, userId);
  if (user.status !== 'invited') throw new ApiError(409, 'ALREADY_REGISTERED', 'This user has already completed sign-up');
  return withTransaction(pool, (tx) => issueInvitationToken(tx, userId, renewedBy));
}

/** An invited account with a single-use link; the person completes it through that link only. */
export async function inviteUser(pool: Db, invitation: Invitation, invitedBy: string): Promise<{ user: User; token: string }> {
  const email = normaliseEmail(invitation.email);
  if (await findUserCredentialByEmail(pool, email)) throw new EmailTakenError();
  const userId = randomUUID();
  const limits = await invitationLimits(pool, invitation);
  let token = '';
  const reserveEmail = hook('account-credentials', ['UserInvited'], async (_events, tx) => {
    await tx.query({ name: 'create-invited-credential', text: 'INSERT INTO user_credentials (user_id, email) VALUES ($1, $2)', values: [userId, email] });
    token = await issueInvitationToken(tx, userId, invitedBy);
  });
  try {
    await handleApiCommand(
      pool,
      userStreamId(userId),
      userDecider,
      { type: 'InviteUser', data: { userId, email, invitedBy, ...limits }, metadata: { now: new Date().toISOString() } },
      { hooks: [reserveEmail], metadata: { actor: invitedBy } },
    );
  } catch (error) {
    if (isEmailTaken(error)) throw new EmailTakenError();
    throw error;
  }
  return { user: await requireUserRow(pool, userId), token };
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
  const endSessionsWhenSwitchedOff = hook('account-sessions', ['UserActivationChanged'], async (stored, tx) => {
    for (const event of stored) {
      if (event.type === 'UserActivationChanged' && !event.data.isActive) await endUserSessions(tx, event.data.userId);
    }
  });
  await handleApiCommand(
    pool,
    userStreamId(userId),
    userDecider,
    { type: 'ChangeUserSubscription', data: { userId, ...change }, metadata: { now: new Date().toISOString() } },
    { hooks: [endSessionsWhenSwitchedOff], metadata: { actor: changedBy } },
  );
  return requireUserRow(pool, userId);
}

/**
 * Erases a deleted owner's personal data from their user stream, inside the deletion's transaction:
 * each event's email becomes a placeholder and its names null (ownerErasurePatchOf), and
 * OwnerErased names every rewritten event with its new digest so `consentry verify` accepts them
 * (as for a visitor's SubjectErased). Events not sealed yet are sealed as they are now. Copies the
 * bus already delivered stay until its stream's retention drops them.
 */
async function eraseOwnerPersonalData(tx: DbTransaction, userId: string): Promise<void> {
  const { rows } = await tx.query<SealedEventRow>({
    name: 'read-owner-events-for-erasure',
    text: `SELECT ${sealedEventColumns} FROM events WHERE stream_id = $1 ORDER BY position FOR UPDATE`,
    values: [userStreamId(userId)],
  });
  const patches = rows
    .map(toSealedEvent)
    .map((event) => ({ position: event.position, patch: ownerErasurePatchOf(event.type, event.data as Record<string, unknown>, userId) }))
    .filter(({ patch }) => Object.keys(patch).length > 0);
  if (patches.length === 0) return;
  await tx.query('SET LOCAL consentry.maintenance = erasure');
  const { rows: updated } = await tx.query<SealedEventRow>({
    name: 'erase-owner-events',
    text: `UPDATE events SET data = events.data || erased.patch
             FROM unnest($1::int8[], $2::jsonb[]) AS erased(at_position, patch)
            WHERE events.position = erased.at_position
        RETURNING ${sealedEventColumns}`,
    values: [patches.map(({ position }) => position), patches.map(({ patch }) => JSON.stringify(patch))],
  });
  const rewritten = updated
    .map(toSealedEvent)
    .sort((a, b) => a.position - b.position)
    .map((event) => ({ position: event.position, eventId: event.eventId, digest: eventDigest(event) }));
  const erasureId = randomUUID();
  await appendInTransaction(tx, `owner-erasures-${userId}`, [
    { type: 'OwnerErased', eventId: erasureId, data: { userId, rewritten, erasedAt: new Date().toISOString() } },
  ]);
}

/**
 * Deletes an account: its websites are removed first (a retry after a failure carries on), then
 * UserDeleted is recorded together with the end of its credential and sessions (and, through the
 * credential, its pending reset and email-change links) and the erasure of its personal data from
 * the log (eraseOwnerPersonalData). An admin deletes any account; an owner deletes their own
 * (`deletedBy` is then the owner's id, as every event's actor).
 */
export async function deleteUser(pool: Db, userId: string, deletedBy: string, by: 'admin' | 'owner' = 'admin'): Promise<void> {
  const streamId = userStreamId(userId);
  const deleteUserCommand = () => ({ type: 'DeleteUser', data: { userId }, metadata: { now: new Date().toISOString() } }) as const;
  // Refuses an unknown or already deleted user before anything is removed.
  userDecider.decide(deleteUserCommand(), (await aggregateStream(pool, streamId, userDecider)).state);
  for (const website of await listWebsites(pool, userId)) {
    await removeWebsite(pool, website.id, by === 'admin' ? { kind: 'admin', username: deletedBy } : { kind: 'owner', userId });
  }
  const forgetAccount = hook('account-credentials', ['UserDeleted'], async (_events, tx) => {
    await tx.query({ name: 'delete-user-credential', text: 'DELETE FROM user_credentials WHERE user_id = $1', values: [userId] });
    await endUserSessions(tx, userId);
    await eraseOwnerPersonalData(tx, userId);
  });
  await handleApiCommand(pool, streamId, userDecider, deleteUserCommand(), { hooks: [forgetAccount], metadata: { actor: deletedBy } });
}

/** How long a registration's confirmation link stays valid. */
export const registrationConfirmationHours = 24;

export type RegistrationRequestOutcome =
  | { readonly kind: 'confirm'; readonly email: string; readonly token: string }
  | { readonly kind: 'exists'; readonly email: string; readonly invited: boolean };

/**
 * Registration when email can be sent: nothing is created yet. A new address gets a pending
 * registration and a confirmation token; an address that has an account (or an invitation) gets
 * nothing here. The caller emails either case and answers both the same way. The password is hashed
 * in both cases, so both take as long.
 */
export async function requestRegistration({ pool, hasher }: AccountsDeps, registration: Registration): Promise<RegistrationRequestOutcome> {
  const email = normaliseEmail(registration.email);
  const passwordHash = await hasher.hash(registration.password);
  const credential = await findUserCredentialByEmail(pool, email);
  if (credential) return { kind: 'exists', email, invited: credential.passwordHash === null };
  const token = randomBytes(32).toString('base64url');
  await pool.query({
    name: 'upsert-pending-registration',
    text: `INSERT INTO pending_registrations (token_hash, email, password_hash, first_name, last_name, expires_at)
           VALUES ($1, $2, $3, $4, $5, now() + make_interval(hours => $6))
           ON CONFLICT (email) DO UPDATE
             SET token_hash = EXCLUDED.token_hash, password_hash = EXCLUDED.password_hash, first_name = EXCLUDED.first_name,
                 last_name = EXCLUDED.last_name, created_at = now(), expires_at = EXCLUDED.expires_at`,
    values: [hashToken(token), email, passwordHash, registration.firstName, registration.lastName, registrationConfirmationHours],
  });
  return { kind: 'confirm', email, token };
}

export class ConfirmationInvalidError extends ApiError {
  constructor() {
    super(400, 'CONFIRMATION_INVALID', 'This confirmation link is not valid any more (used, expired or replaced); register again to get a new one');
  }
}

/** Creates the account a confirmation link stands for (once); the pending registration goes in the same transaction. */
export async function confirmRegistration(pool: Db, token: string): Promise<User> {
  const { rows } = await pool.query<{ email: string; password_hash: string; first_name: string | null; last_name: string | null }>({
    name: 'find-pending-registration',
    text: 'SELECT email, password_hash, first_name, last_name FROM pending_registrations WHERE token_hash = $1 AND expires_at > now()',
    values: [hashToken(token)],
  });
  const pending = rows[0];
  if (!pending) throw new ConfirmationInvalidError();
  if (await findUserCredentialByEmail(pool, pending.email)) {
    await pool.query('DELETE FROM pending_registrations WHERE token_hash = $1', [hashToken(token)]);
    throw new ConfirmationInvalidError();
  }
  try {
    return await completeRegistration(pool, {
      userId: randomUUID(),
      email: pending.email,
      passwordHash: pending.password_hash,
      registration: { firstName: pending.first_name, lastName: pending.last_name },
      invitation: null,
      confirmation: hashToken(token),
    });
  } catch (error) {
    if (error instanceof EmailTakenError) throw new ConfirmationInvalidError();
    throw error;
  }
}
