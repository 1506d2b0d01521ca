// Reads of the users read model, and the admin's list of users with what they have: websites,
// consents (from the consent-stats read model) and their latest activity.
import type { SubscriptionStatus, SubscriptionTier } from '@consentry/events';
import type { Queryable } from '@consentry/infra';

export interface User {
  readonly id: string;
  readonly email: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly status: 'invited' | 'registered';
  readonly subscriptionTier: SubscriptionTier;
  readonly subscriptionStatus: SubscriptionStatus;
  readonly maxWebsites: number;
  readonly maxConsentsPerMonth: number;
  readonly isActive: boolean;
  readonly invitedAt: string | null;
  readonly registeredAt: string | null;
  readonly updatedAt: string;
}

export interface ManagedUser extends User {
  readonly websiteCount: number;
  readonly consentCount: number;
  /** Consents recorded on the user's websites this calendar month (UTC), what maxConsentsPerMonth is about. */
  readonly currentMonthConsents: number;
  /** The latest of: the account changing, a website added, an event from one of the websites. */
  readonly lastActivity: string;
}

interface UserRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  status: 'invited' | 'registered';
  subscription_tier: SubscriptionTier;
  subscription_status: SubscriptionStatus;
  max_websites: number;
  max_consents_per_month: number;
  is_active: boolean;
  invited_at: Date | null;
  registered_at: Date | null;
  updated_at: Date;
}

const userColumns = `u.id, u.email, u.first_name, u.last_name, u.status, u.subscription_tier, u.subscription_status,
                     u.max_websites, u.max_consents_per_month, u.is_active, u.invited_at, u.registered_at, u.updated_at`;

const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  status: row.status,
  subscriptionTier: row.subscription_tier,
  subscriptionStatus: row.subscription_status,
  maxWebsites: row.max_websites,
  maxConsentsPerMonth: row.max_consents_per_month,
  isActive: row.is_active,
  invitedAt: row.invited_at?.toISOString() ?? null,
  registeredAt: row.registered_at?.toISOString() ?? null,
  updatedAt: row.updated_at.toISOString(),
});

export async function getUser(db: Queryable, userId: string): Promise<User | null> {
  const { rows } = await db.query<UserRow>({ name: 'get-user', text: `SELECT ${userColumns} FROM users u WHERE u.id = $1`, values: [userId] });
  return rows[0] ? toUser(rows[0]) : null;
}

/** The users with these ids that exist (any order): one read for a list that names many. */
export async function getUsers(db: Queryable, userIds: readonly string[]): Promise<User[]> {
  if (userIds.length === 0) return [];
  const { rows } = await db.query<UserRow>({ name: 'get-users', text: `SELECT ${userColumns} FROM users u WHERE u.id = ANY($1::uuid[])`, values: [userIds] });
  return rows.map(toUser);
}

/** The user with this email (compared case-insensitively), registered or invited. */
export async function findUserByEmail(db: Queryable, email: string): Promise<User | null> {
  const { rows } = await db.query<UserRow>({
    name: 'find-user-by-email',
    text: `SELECT ${userColumns} FROM users u WHERE lower(u.email) = lower($1) ORDER BY u.updated_at DESC LIMIT 1`,
    values: [email],
  });
  return rows[0] ? toUser(rows[0]) : null;
}

/** Every user, newest first, with their website count, all-time consent count and latest activity. */
export async function listManagedUsers(db: Queryable): Promise<ManagedUser[]> {
  return queryManagedUsers(db, null);
}

export async function getManagedUser(db: Queryable, userId: string): Promise<ManagedUser | null> {
  return (await queryManagedUsers(db, userId))[0] ?? null;
}

async function queryManagedUsers(db: Queryable, userId: string | null): Promise<ManagedUser[]> {
  const { rows } = await db.query<UserRow & { website_count: number; consent_count: number; month_consent_count: number; last_activity: Date }>({
    name: 'list-managed-users',
    text: `SELECT ${userColumns},
                  coalesce(w.website_count, 0)::int8 AS website_count,
                  coalesce(c.consent_count, 0)::int8 AS consent_count,
                  coalesce(c.month_consent_count, 0)::int8 AS month_consent_count,
                  greatest(u.updated_at, w.last_added_at, a.last_event_at) AS last_activity
             FROM users u
             LEFT JOIN LATERAL (
               SELECT count(*) AS website_count, max(created_at) AS last_added_at FROM websites WHERE owner_id = u.id
             ) w ON true
             LEFT JOIN LATERAL (
               SELECT sum(s.accepted + s.declined) AS consent_count,
                      sum(s.accepted + s.declined) FILTER (WHERE s.day >= date_trunc('month', now() AT TIME ZONE 'UTC')::date) AS month_consent_count
                 FROM consent_stats_daily s JOIN websites ws ON ws.id = s.website_id
                WHERE ws.owner_id = u.id
             ) c ON true
             LEFT JOIN LATERAL (
               SELECT max(wa.last_event_at) AS last_event_at
                 FROM website_activity wa JOIN websites ws ON ws.id = wa.website_id
                WHERE ws.owner_id = u.id
             ) a ON true
            WHERE $1::uuid IS NULL OR u.id = $1
            ORDER BY coalesce(u.registered_at, u.invited_at, u.updated_at) DESC, u.id`,
    values: [userId],
  });
  return rows.map((row) => ({
    ...toUser(row),
    websiteCount: row.website_count,
    consentCount: row.consent_count,
    currentMonthConsents: row.month_consent_count,
    lastActivity: row.last_activity.toISOString(),
  }));
}
