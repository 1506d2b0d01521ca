// Identify rate limits (docs/identification.md, "Limits"): a few identifications per minute per
// visitor address, and a budget per website, so that one address with the public embed code cannot
// mint leads (and bills, and enrichment calls) by the hundred.
//
// Counted in PostgreSQL (identify_rate_tallies, migration 023), not in each process as the general
// INGEST_RATE_LIMIT_PER_MINUTE is: that one only shields a process, and with N HTTP workers (or N
// ingest machines) a per-process count would let N times the limit through, which for a per-website
// budget would make the limit depend on how the kernel spreads connections. Identify requests are few,
// so one statement each is cheap. Fixed one-minute windows by the database's clock (the one every
// process shares). The address is counted first, and the website only for requests the address limit
// let through: one address flooding a website never spends that website's budget for its genuine
// visitors. Keys are HMACs under a secret kept in the database (`secrets`), so the table names no
// address; rows from past windows are swept now and then.
import { createHmac, randomBytes } from 'node:crypto';
import { StoreUnavailableError, type Db } from '@consentry/infra';
import type { FastifyReply } from 'fastify';
import { IngestError } from '../errors';

export interface IdentifyRateLimits {
  /** Identify requests per minute from one visitor address (IDENTIFY_RATE_LIMIT_PER_IP_PER_MINUTE). */
  readonly perIpPerMinute: number;
  /** Identify requests per minute for one website (IDENTIFY_RATE_LIMIT_PER_WEBSITE_PER_MINUTE). */
  readonly perWebsitePerMinute: number;
}

export const defaultIdentifyRateLimits: IdentifyRateLimits = { perIpPerMinute: 10, perWebsitePerMinute: 120 };

export interface IdentifyRateLimiter {
  /** Counts one identify request; throws a 429 IngestError (with Retry-After set on `reply`) when over a limit. */
  count(request: { readonly ip: string; readonly websiteId: string }, reply: FastifyReply): Promise<void>;
}

const secretName = 'identify-rate-tallies';

async function tallySecret(pool: Db): Promise<string> {
  // Two processes starting at once: the first insert wins and both read the same value.
  await pool.query({
    name: 'identify-rate-secret-create',
    text: 'INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
    values: [secretName, randomBytes(32).toString('base64url')],
  });
  const { rows } = await pool.query<{ value: string }>({ name: 'identify-rate-secret-read', text: 'SELECT value FROM secrets WHERE name = $1', values: [secretName] });
  if (!rows[0]) throw new Error('The identify rate-limit secret could not be stored');
  return rows[0].value;
}

interface CountedRow {
  ip_hits: number;
  website_hits: number | null;
  retry_after: number;
}

/**
 * Counts the address, then (unless the address is over its limit) the website, in this window; one
 * statement, locking the address's row before the website's, so parallel requests never deadlock.
 */
async function countHits(pool: Db, ipKey: string, websiteKey: string, perIp: number): Promise<CountedRow> {
  const { rows } = await pool.query<CountedRow>({
    name: 'identify-rate-count',
    text: `WITH ip AS (
             INSERT INTO identify_rate_tallies AS t (key_hash, window_start, hits) VALUES ($1, date_trunc('minute', now()), 1)
             ON CONFLICT (key_hash, window_start) DO UPDATE SET hits = t.hits + 1
             RETURNING t.hits
           ), site AS (
             INSERT INTO identify_rate_tallies AS t (key_hash, window_start, hits)
             SELECT $2, date_trunc('minute', now()), 1 FROM ip WHERE ip.hits <= $3
             ON CONFLICT (key_hash, window_start) DO UPDATE SET hits = t.hits + 1
             RETURNING t.hits
           )
           SELECT (SELECT hits FROM ip) AS ip_hits, (SELECT hits FROM site) AS website_hits,
                  greatest(1, ceil(extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now())))::int AS retry_after`,
    values: [ipKey, websiteKey, perIp],
  });
  return rows[0]!;
}

/** Deletes up to `limit` tallies of windows before the previous one; rows in use are skipped. */
export async function sweepIdentifyRateTallies(pool: Db, limit = 1_000): Promise<number> {
  const result = await pool.query({
    name: 'identify-rate-sweep',
    text: `DELETE FROM identify_rate_tallies
            WHERE (key_hash, window_start) IN (
                    SELECT key_hash, window_start FROM identify_rate_tallies
                     WHERE window_start < date_trunc('minute', now()) - interval '1 minute'
                     ORDER BY window_start LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    values: [limit],
  });
  return result.rowCount ?? 0;
}

export function createIdentifyRateLimiter(
  pool: Db,
  limits: IdentifyRateLimits,
  options: { readonly sweepEveryMs?: number; readonly onSweepFailed?: (error: unknown) => void } = {},
): IdentifyRateLimiter {
  let secret: Promise<string> | undefined;
  const keyOf = async (key: string) => {
    secret ??= tallySecret(pool).catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return createHmac('sha256', await secret).update(key, 'utf8').digest('hex');
  };
  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  let nextSweepAt = 0;

  return {
    async count({ ip, websiteId }, reply) {
      const counted = await Promise.all([keyOf(`ip:${ip}`), keyOf(`website:${websiteId}`)])
        .then(([ipKey, websiteKey]) => countHits(pool, ipKey, websiteKey, limits.perIpPerMinute))
        .catch((error: unknown) => {
          throw new StoreUnavailableError('The identify rate limits cannot be counted', { cause: error });
        });
      if (Date.now() >= nextSweepAt) {
        nextSweepAt = Date.now() + sweepEveryMs;
        // A full sweep means more are waiting: the next request sweeps again.
        sweepIdentifyRateTallies(pool).then((swept) => {
          if (swept >= 1_000) nextSweepAt = 0;
        }, options.onSweepFailed ?? (() => {}));
      }
      if (counted.ip_hits > limits.perIpPerMinute) {
        reply.header('retry-after', String(counted.retry_after));
        throw new IngestError(429, 'IDENTIFY_RATE_LIMITED', `Too many identifications from this address; at most ${limits.perIpPerMinute} a minute`);
      }
      if (counted.website_hits !== null && counted.website_hits > limits.perWebsitePerMinute) {
        reply.header('retry-after', String(counted.retry_after));
        throw new IngestError(429, 'IDENTIFY_RATE_LIMITED', 'Too many identifications on this website right now; try again in a minute');
      }
    },
  };
}
