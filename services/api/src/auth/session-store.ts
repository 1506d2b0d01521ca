// The login-session store for @fastify/session, on the `sessions` table. Rows are keyed by the
// SHA-256 of the session id, so the table never holds a usable session id; expired rows are never
// answered and are pruned. Sessions are secrets, not history: plain rows, updated and deleted.
import { createHash } from 'node:crypto';
import type { Db } from '@consentry/infra';
import type { Session } from 'fastify';
// The session plugin's declarations (request.session, Session.cookie) are needed wherever sessions are.
import type {} from '@fastify/session';

declare module 'fastify' {
  interface Session {
    /** The signed-in owner, if any. */
    userId?: string;
    /** The signed-in admin, if any (a separate sign-in that can share the cookie). */
    adminUsername?: string;
  }
}

type Callback = (error?: unknown) => void;
type SessionCallback = (error: unknown, session?: Session | null) => void;

export interface PostgresSessionStore {
  set(sessionId: string, session: Session, callback: Callback): void;
  get(sessionId: string, callback: SessionCallback): void;
  destroy(sessionId: string, callback: Callback): void;
}

export const hashSessionId = (sessionId: string) => createHash('sha256').update(sessionId).digest('base64url');

/** Absolute lifetime used when a session's cookie carries no expiry. */
const fallbackLifetimeMs = 7 * 24 * 60 * 60 * 1000;

function expiryOf(session: Session): Date {
  const expires = session.cookie.expires;
  return expires instanceof Date && !Number.isNaN(expires.getTime()) ? expires : new Date(Date.now() + fallbackLifetimeMs);
}

export function createPostgresSessionStore(pool: Db): PostgresSessionStore {
  return {
    set(sessionId, session, callback) {
      pool
        .query({
          name: 'session-set',
          text: `INSERT INTO sessions (id_hash, user_id, admin_username, data, expires_at) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (id_hash) DO UPDATE
                   SET user_id = $2, admin_username = $3, data = $4, expires_at = $5`,
          values: [hashSessionId(sessionId), session.userId ?? null, session.adminUsername ?? null, JSON.stringify(session), expiryOf(session)],
        })
        .then(() => callback(), callback);
    },
    get(sessionId, callback) {
      pool
        .query<{ data: Session }>({
          name: 'session-get',
          text: 'SELECT data FROM sessions WHERE id_hash = $1 AND expires_at > now()',
          values: [hashSessionId(sessionId)],
        })
        .then((result) => callback(null, result.rows[0]?.data ?? null), (error: unknown) => callback(error));
    },
    destroy(sessionId, callback) {
      pool
        .query({ name: 'session-destroy', text: 'DELETE FROM sessions WHERE id_hash = $1', values: [hashSessionId(sessionId)] })
        .then(() => callback(), callback);
    },
  };
}

/** Deletes expired sessions; returns how many. */
export async function pruneExpiredSessions(pool: Db): Promise<number> {
  const result = await pool.query({ name: 'session-prune', text: 'DELETE FROM sessions WHERE expires_at <= now()' });
  return result.rowCount ?? 0;
}

/** Ends every session of an owner (account deleted or switched off). */
export async function endUserSessions(db: Pick<Db, 'query'>, userId: string): Promise<void> {
  await db.query({ name: 'session-end-user', text: 'DELETE FROM sessions WHERE user_id = $1', values: [userId] });
}
