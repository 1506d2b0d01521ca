// Slowing down password guessing without letting a stranger lock anyone out: only failures count,
// per account and address, per address and per account, in PostgreSQL tallies every process shares.
// The rules and why: docs/security.md, "Sign-in throttling" (sign-in-throttle-memory.ts: the same in memory).
import { createHmac } from 'node:crypto';
import type { Db, DbClient } from '@consentry/infra';

export interface SignInThrottleOptions {
  /** Failures one address may make at one account before its attempts there start to wait. */
  readonly freePerAccountAndAddress: number;
  /** Failures one address may make at any accounts before all its sign-ins start to wait. */
  readonly freePerAddress: number;
  /** Failures at one account from anywhere before addresses that failed at it start to wait. */
  readonly freePerAccount: number;
  /** The first wait; each further failure doubles it. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A tally is forgotten this long after its latest failure. */
  readonly forgetAfterMs: number;
}

export const defaultSignInThrottle: SignInThrottleOptions = {
  freePerAccountAndAddress: 5,
  freePerAddress: 30,
  freePerAccount: 10,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 15 * 60_000,
};

export type SignInAttempt =
  | { readonly allowed: false; readonly retryAfterMs: number }
  | {
      readonly allowed: true;
      /** The password was right: the address starts over at this account, and this attempt is no failure anywhere. */
      succeeded(): Promise<void>;
      /** The password was wrong: the attempt stays counted. */
      failed(): Promise<void>;
      /** The attempt got no answer about the password (the database was away): it counts for nothing. */
      withdrawn(): Promise<void>;
    };

export interface SignInThrottle {
  /**
   * Whether this address may try this account now; if so, the attempt is counted as a failure until
   * it reports how it ended. Rejects when the tallies cannot be read.
   */
  attempt(account: string, address: string): Promise<SignInAttempt>;
}

export interface Tally {
  readonly failures: number;
  /** Milliseconds since the epoch. */
  readonly lastFailureAt: number;
}

/** The three tallies one attempt counts in. */
export interface TallyKeys {
  readonly pair: string;
  readonly address: string;
  readonly account: string;
}

export function tallyKeysOf(account: string, address: string): TallyKeys {
  // JSON keeps the parts apart whatever characters an account name holds.
  return {
    pair: JSON.stringify(['pair', account, address]),
    address: JSON.stringify(['address', address]),
    account: JSON.stringify(['account', account]),
  };
}

/** The tally as the rules see it at `at`: none once forgotten, or once all its failures were taken back. */
export function liveTally(tally: Tally | undefined, at: number, options: SignInThrottleOptions): Tally | undefined {
  return tally !== undefined && tally.failures > 0 && at - tally.lastFailureAt < options.forgetAfterMs ? tally : undefined;
}

/** Milliseconds an attempt at `at` must still wait (0: none), given the live tallies of its keys. */
export function waitBefore(
  tallies: { readonly [key in keyof TallyKeys]: Tally | undefined },
  at: number,
  options: SignInThrottleOptions,
): number {
  const waitFor = (tally: Tally | undefined, free: number) => {
    if (!tally || tally.failures < free) return 0;
    const delay = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.min(tally.failures - free, 40));
    return Math.max(0, tally.lastFailureAt + delay - at);
  };
  return Math.max(
    waitFor(tallies.pair, options.freePerAccountAndAddress),
    waitFor(tallies.address, options.freePerAddress),
    // Strangers' failures at an account hold back only addresses that have failed there themselves.
    tallies.pair ? waitFor(tallies.account, options.freePerAccount) : 0,
  );
}

/**
 * What a row is keyed by: an HMAC-SHA-256 (hex) of the tally's key under a server secret, so no row
 * names an address or an account, and none can be turned back into one by hashing every IPv4
 * address (about four billion tries) or a list of email addresses, as a plain hash could.
 */
export const hashTallyKey = (key: string, secret: string): string => createHmac('sha256', secret).update(key, 'utf8').digest('hex');

/**
 * The secret the tallies are keyed under, derived from the session secret (SESSION_SECRET, or the
 * one generated and kept in the database) rather than that secret itself: every api process on the
 * database derives the same one. A new secret only starts the tallies over.
 */
export const tallySecretFrom = (sessionSecret: string): string => createHmac('sha256', sessionSecret).update('consentry sign-in tallies', 'utf8').digest('hex');

export interface SignInTallySweeping {
  /** Forgotten rows one sweep deletes at most; a sweep that deletes that many runs again at the next attempt. */
  readonly sweepLimit?: number;
  /** How often one process sweeps while it keeps up. */
  readonly sweepEveryMs?: number;
  /** A sweep failed; the sign-in it ran beside goes on, and a later sweep tries again. */
  readonly onSweepFailed?: (error: unknown) => void;
}

interface LockedTallyRow {
  key_hash: string;
  failures: number;
  last_failure_at: Date;
  /** The database's clock once the row was locked. */
  at: Date;
}

/**
 * Locks the tallies of these keys in key order (a missing one is created with no failures) and reads
 * them as they are once locked, with the database's clock. Attempts at the same tallies, in any
 * process, wait here for one another.
 */
async function lockTallies(tx: DbClient, keyHashes: readonly string[]): Promise<LockedTallyRow[]> {
  const { rows } = await tx.query<LockedTallyRow>({
    name: 'sign-in-tallies-lock',
    text: `INSERT INTO sign_in_tallies AS tally (key_hash, failures, last_failure_at)
           SELECT key_hash, 0, clock_timestamp() FROM unnest($1::text[]) AS key_hash ORDER BY key_hash
           ON CONFLICT (key_hash) DO UPDATE SET failures = tally.failures
           RETURNING tally.key_hash, tally.failures, tally.last_failure_at, clock_timestamp() AS at`,
    values: [keyHashes],
  });
  return rows;
}

/** Sets the failures of tallies this transaction has locked, all failing at `at`. */
async function countFailures(tx: DbClient, counted: ReadonlyArray<{ readonly keyHash: string; readonly failures: number }>, at: Date): Promise<void> {
  await tx.query({
    name: 'sign-in-tallies-count',
    text: `UPDATE sign_in_tallies AS tally SET failures = counted.failures, last_failure_at = $3
             FROM unnest($1::text[], $2::integer[]) AS counted (key_hash, failures)
            WHERE tally.key_hash = counted.key_hash`,
    values: [counted.map((tally) => tally.keyHash), counted.map((tally) => tally.failures), at],
  });
}

/**
 * Takes one failure back from each live tally of `keyHashes`, or all of them from those also in
 * `forgetting`. One statement, locking in key order like an attempt.
 */
async function takeBackFailures(pool: Db, keyHashes: readonly string[], forgetting: readonly string[], forgetAfterMs: number): Promise<void> {
  await pool.query({
    name: 'sign-in-tallies-take-back',
    text: `WITH locked AS (
             SELECT key_hash FROM sign_in_tallies WHERE key_hash = ANY($1::text[]) ORDER BY key_hash FOR UPDATE
           )
           UPDATE sign_in_tallies AS tally
              SET failures = CASE WHEN tally.key_hash = ANY($2::text[]) THEN 0 ELSE tally.failures - 1 END
             FROM locked
            WHERE tally.key_hash = locked.key_hash
              AND tally.failures > 0
              AND tally.last_failure_at > now() - $3::double precision * interval '1 millisecond'`,
    values: [keyHashes, forgetting, forgetAfterMs],
  });
}

/**
 * Deletes up to `limit` forgotten tallies, oldest first, and says how many. Rows an attempt holds
 * are skipped (a later sweep finds them), so a sweep never waits for anyone.
 */
export async function deleteForgottenSignInTallies(pool: Db, forgetAfterMs: number, limit: number): Promise<number> {
  const result = await pool.query({
    name: 'sign-in-tallies-sweep',
    text: `DELETE FROM sign_in_tallies
            WHERE key_hash IN (
                    SELECT key_hash FROM sign_in_tallies
                     WHERE last_failure_at <= now() - $1::double precision * interval '1 millisecond'
                     ORDER BY last_failure_at
                     LIMIT $2
                       FOR UPDATE SKIP LOCKED)
              AND last_failure_at <= now() - $1::double precision * interval '1 millisecond'`,
    values: [forgetAfterMs, limit],
  });
  return result.rowCount ?? 0;
}

/**
 * Decides an attempt on its locked tallies and, when it may go ahead, counts it as a failure in the
 * same transaction. Answers the wait (0: counted, go ahead); a refused attempt changes nothing.
 */
async function countAttempt(pool: Db, keyHashes: TallyKeys, options: SignInThrottleOptions): Promise<number> {
  const client = await pool.connect();
  // A connection that fails while checked out reports it here (its queries fail too); unheard, the
  // error would end the process. Such a connection is not given back to the pool.
  let broken: Error | undefined;
  const onBroken = (error: Error) => {
    broken = error;
  };
  client.on('error', onBroken);
  try {
    // Locks are held for a few round trips; one held much longer means something is wrong: fail.
    await client.query("BEGIN; SET LOCAL lock_timeout = '5s'");
    const rows = await lockTallies(client, Object.values(keyHashes));
    const at = Math.max(...rows.map((row) => row.at.getTime()));
    const tallyOf = (keyHash: string) => {
      const row = rows.find((candidate) => candidate.key_hash === keyHash);
      return liveTally(row && { failures: row.failures, lastFailureAt: row.last_failure_at.getTime() }, at, options);
    };
    const tallies = { pair: tallyOf(keyHashes.pair), address: tallyOf(keyHashes.address), account: tallyOf(keyHashes.account) };
    const wait = waitBefore(tallies, at, options);
    if (wait > 0) {
      await client.query('ROLLBACK');
      return wait;
    }
    const counted = (['pair', 'address', 'account'] as const).map((key) => ({ keyHash: keyHashes[key], failures: (tallies[key]?.failures ?? 0) + 1 }));
    await countFailures(client, counted, new Date(at));
    await client.query('COMMIT');
    return 0;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken ??= rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.off('error', onBroken);
    client.release(broken);
  }
}

/** The api's throttle: tallies in PostgreSQL, shared by every process on the same database. */
export function createSignInThrottle(
  pool: Db,
  tallySecret: string,
  options: SignInThrottleOptions = defaultSignInThrottle,
  sweeping: SignInTallySweeping = {},
): SignInThrottle {
  const sweepLimit = sweeping.sweepLimit ?? 1_000;
  const sweepEveryMs = sweeping.sweepEveryMs ?? 60_000;
  let nextSweepAt = 0;

  async function sweepWhenDue(): Promise<void> {
    const now = Date.now();
    if (now < nextSweepAt) return;
    nextSweepAt = now + sweepEveryMs;
    try {
      // A full sweep means more forgotten rows are waiting: the next attempt sweeps again.
      if ((await deleteForgottenSignInTallies(pool, options.forgetAfterMs, sweepLimit)) >= sweepLimit) nextSweepAt = 0;
    } catch (error) {
      sweeping.onSweepFailed?.(error);
    }
  }

  return {
    async attempt(account, address) {
      const keys = tallyKeysOf(account, address);
      const keyHashes: TallyKeys = {
        pair: hashTallyKey(keys.pair, tallySecret),
        address: hashTallyKey(keys.address, tallySecret),
        account: hashTallyKey(keys.account, tallySecret),
      };
      const wait = await countAttempt(pool, keyHashes, options);
      await sweepWhenDue();
      if (wait > 0) return { allowed: false, retryAfterMs: wait };
      const all = Object.values(keyHashes);
      let settled = false;
      return {
        allowed: true,
        async succeeded() {
          if (settled) return;
          settled = true;
          // The address proved it knows the password: its tally at this account starts over, and
          // this attempt is not a failure anywhere.
          await takeBackFailures(pool, all, [keyHashes.pair], options.forgetAfterMs);
        },
        async failed() {
          settled = true;
        },
        async withdrawn() {
          if (settled) return;
          settled = true;
          await takeBackFailures(pool, all, [], options.forgetAfterMs);
        },
      };
    },
  };
}
