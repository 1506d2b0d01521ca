// The sign-in throttle on its tallies in PostgreSQL, as several processes see them: two throttles on
// separate pools (two processes) count against the same tallies, so a burst split between them is
// throttled as one; the rules of sign-in-throttle.unit.test.ts hold across them; forgotten tallies
// are rewritten or swept away; no row names an address or an account; and when the database cannot
// be asked, attempts are refused rather than let through.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPool, isTransientDatabaseError, type Db } from '@consentry/infra';
import { createTestDatabase, startTcpProxy, type TestDatabase } from '@consentry/infra/testing';
import {
  createSignInThrottle,
  deleteForgottenSignInTallies,
  hashTallyKey,
  tallyKeysOf,
  tallySecretFrom,
  type SignInThrottle,
  type SignInThrottleOptions,
} from './sign-in-throttle';

/** Both "processes" derive the tallies' key from the same session secret, as api processes on one database do. */
const secret = tallySecretFrom('a session secret of at least thirty-two characters');

const rules: SignInThrottleOptions = {
  freePerAccountAndAddress: 3,
  freePerAddress: 10,
  freePerAccount: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  forgetAfterMs: 15 * 60_000,
};

let db: TestDatabase;
/** Another process's connections to the same database. */
let elsewhere: Db;
let here: SignInThrottle;
let there: SignInThrottle;

beforeAll(async () => {
  db = await createTestDatabase('api_sign_in_throttle', { poolSize: 12 });
  elsewhere = createPool(db.connectionString, { max: 12, applicationName: 'test-api_sign_in_throttle-elsewhere' });
});
afterAll(async () => {
  await elsewhere?.end();
  await db?.drop();
});
beforeEach(async () => {
  await db.pool.query('DELETE FROM sign_in_tallies');
  here = createSignInThrottle(db.pool, secret, rules);
  there = createSignInThrottle(elsewhere, secret, rules);
});

/** Moves every tally `ms` into the past: what waiting that long does to them. */
const wait = (ms: number) => db.pool.query("UPDATE sign_in_tallies SET last_failure_at = last_failure_at - $1::double precision * interval '1 millisecond'", [ms]);

async function fail(throttle: SignInThrottle, account: string, address: string): Promise<number> {
  const attempt = await throttle.attempt(account, address);
  if (!attempt.allowed) return attempt.retryAfterMs;
  await attempt.failed();
  return 0;
}

async function storedKeyHashes(): Promise<string[]> {
  const { rows } = await db.pool.query<{ key_hash: string }>('SELECT key_hash FROM sign_in_tallies');
  return rows.map((row) => row.key_hash).sort();
}

const hashesOf = (account: string, address: string) => Object.values(tallyKeysOf(account, address)).map((key) => hashTallyKey(key, secret)).sort();

async function failuresOf(key: string): Promise<number | undefined> {
  const { rows } = await db.pool.query<{ failures: number }>('SELECT failures FROM sign_in_tallies WHERE key_hash = $1', [hashTallyKey(key, secret)]);
  return rows[0]?.failures;
}

describe('two processes on one database', () => {
  it('tally a burst of parallel guesses split between them as it arrives, as one throttle would', async () => {
    const burst = await Promise.all(Array.from({ length: 40 }, (_, guess) => (guess % 2 === 0 ? here : there).attempt('admin:root', '203.0.113.9')));
    expect(burst.filter((attempt) => attempt.allowed)).toHaveLength(3);
    const keys = tallyKeysOf('admin:root', '203.0.113.9');
    expect(await failuresOf(keys.pair)).toBe(3);
    expect(await failuresOf(keys.address)).toBe(3);
    expect(await failuresOf(keys.account)).toBe(3);
  });

  it('double the wait of an address whichever process it tries next', async () => {
    for (const throttle of [here, there, here]) expect(await fail(throttle, 'admin:root', '203.0.113.9')).toBe(0);
    const waits: number[] = [];
    for (let guess = 0; guess < 4; guess++) {
      const attempt = await (guess % 2 === 0 ? there : here).attempt('admin:root', '203.0.113.9');
      if (attempt.allowed) throw new Error(`guess ${guess} should wait`);
      waits.push(attempt.retryAfterMs);
      await wait(attempt.retryAfterMs);
      expect(await fail(guess % 2 === 0 ? here : there, 'admin:root', '203.0.113.9')).toBe(0);
    }
    // The database's clock runs on between counting and asking: a wait is at most a few ms shorter.
    for (const [index, expected] of [1_000, 2_000, 4_000, 8_000].entries()) {
      expect(waits[index]).toBeLessThanOrEqual(expected);
      expect(waits[index]).toBeGreaterThan(expected - 500);
    }
  });

  it('never hold back an address that has not failed, however many strangers guessed in either', async () => {
    for (let stranger = 0; stranger < 20; stranger++) {
      await fail(here, 'admin:root', `198.51.100.${stranger}`);
      await fail(there, 'admin:root', `198.51.100.${stranger}`);
    }
    expect((await here.attempt('admin:root', '192.0.2.10')).allowed).toBe(true);
    expect((await there.attempt('admin:root', '198.51.100.1')).allowed).toBe(false);
  });

  it('slow an address that sprays many accounts through both, but not the same accounts from elsewhere', async () => {
    for (let account = 0; account < 10; account++) expect(await fail(account % 2 ? here : there, `user:victim${account}@example.com`, '203.0.113.50')).toBe(0);
    expect((await here.attempt('user:victim99@example.com', '203.0.113.50')).allowed).toBe(false);
    expect((await there.attempt('user:victim99@example.com', '192.0.2.1')).allowed).toBe(true);
  });

  it('start an address over at an account once it signs in there, in either', async () => {
    for (const throttle of [here, there]) await fail(throttle, 'user:owner@example.com', '192.0.2.1');
    const right = await here.attempt('user:owner@example.com', '192.0.2.1');
    if (!right.allowed) throw new Error('the third attempt is free');
    await right.succeeded();
    const keys = tallyKeysOf('user:owner@example.com', '192.0.2.1');
    expect(await failuresOf(keys.pair)).toBe(0);
    expect(await failuresOf(keys.address)).toBe(2);
    for (let guess = 0; guess < 3; guess++) expect(await fail(there, 'user:owner@example.com', '192.0.2.1')).toBe(0);
  });

  it('count an attempt that got no answer about the password for nothing', async () => {
    for (let outage = 0; outage < 10; outage++) {
      const attempt = await (outage % 2 ? here : there).attempt('admin:root', '192.0.2.1');
      if (!attempt.allowed) throw new Error('withdrawn attempts must not count');
      await attempt.withdrawn();
    }
    expect((await here.attempt('admin:root', '192.0.2.1')).allowed).toBe(true);
  });

  it('never deadlock on overlapping tallies, whatever the mix of attempts and their endings', async () => {
    const generous = { ...rules, freePerAccountAndAddress: 1_000, freePerAddress: 1_000, freePerAccount: 1_000 };
    const throttles = [createSignInThrottle(db.pool, secret, generous), createSignInThrottle(elsewhere, secret, generous)];
    const endings = ['succeeded', 'failed', 'withdrawn'] as const;
    await Promise.all(
      Array.from({ length: 300 }, async (_, index) => {
        const attempt = await throttles[index % 2]!.attempt(`user:${index % 3}@example.com`, `192.0.2.${index % 5}`);
        if (!attempt.allowed) throw new Error('nothing should wait here');
        await attempt[endings[index % 3]!]();
      }),
    );
  });
});

describe('forgotten tallies', () => {
  it('no longer hold anyone back, and start over when their key fails again', async () => {
    for (let guess = 0; guess < 3; guess++) await fail(here, 'admin:root', '203.0.113.9');
    expect((await there.attempt('admin:root', '203.0.113.9')).allowed).toBe(false);
    await wait(rules.forgetAfterMs);
    expect(await fail(there, 'admin:root', '203.0.113.9')).toBe(0);
    expect(await failuresOf(tallyKeysOf('admin:root', '203.0.113.9').pair)).toBe(1);
  });

  it('are deleted in bounded sweeps, oldest first, live ones kept', async () => {
    for (let guesser = 0; guesser < 4; guesser++) await fail(here, `user:gone${guesser}@example.com`, `198.51.100.${guesser}`);
    await wait(rules.forgetAfterMs); // 4 × 3 tallies, all forgotten
    await fail(here, 'user:kept@example.com', '192.0.2.1');
    expect(await deleteForgottenSignInTallies(db.pool, rules.forgetAfterMs, 5)).toBe(5);
    expect(await deleteForgottenSignInTallies(db.pool, rules.forgetAfterMs, 100)).toBe(7);
    expect(await storedKeyHashes()).toEqual(hashesOf('user:kept@example.com', '192.0.2.1'));
  });

  it('are swept by attempts now and then, and at once again while sweeps find full batches', async () => {
    for (let guesser = 0; guesser < 10; guesser++) await fail(here, `user:gone${guesser}@example.com`, `198.51.100.${guesser}`);
    await wait(rules.forgetAfterMs); // 30 forgotten tallies
    const sweeping = createSignInThrottle(db.pool, secret, { ...rules, freePerAccountAndAddress: 100 }, { sweepLimit: 10, sweepEveryMs: 60 * 60_000 });
    const storedCount = async () => (await storedKeyHashes()).length;
    const counts: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      await fail(sweeping, 'user:kept@example.com', '192.0.2.1');
      counts.push(await storedCount());
    }
    // 3 tallies of its own, and 10 forgotten ones swept per attempt until a sweep finds fewer.
    expect(counts).toEqual([23, 13, 3, 3]);
    expect(await storedKeyHashes()).toEqual(hashesOf('user:kept@example.com', '192.0.2.1'));
    // Caught up: the next sweep waits for its interval.
    await fail(here, 'user:late@example.com', '198.51.100.99');
    await wait(rules.forgetAfterMs);
    await fail(sweeping, 'user:kept@example.com', '192.0.2.1');
    expect(await storedCount()).toBe(6);
  });
});

describe('the rows', () => {
  it('name no address and no account: each is keyed by an HMAC of its tally key under the server secret', async () => {
    const account = 'user:ada.lovelace@example.com';
    const address = '198.51.100.77';
    await fail(here, account, address);
    const right = await there.attempt(account, address);
    if (right.allowed) await right.withdrawn();
    expect(await storedKeyHashes()).toEqual(hashesOf(account, address));
    const { rows } = await db.pool.query<{ row: string }>('SELECT t::text AS row FROM sign_in_tallies t');
    expect(rows).toHaveLength(3);
    for (const { row } of rows) {
      expect(row).toMatch(/^\([0-9a-f]{64},/);
      for (const part of ['lovelace', 'example.com', address, 'pair', 'user:']) expect(row).not.toContain(part);
    }
  });

  it('cannot be traced back to an address by hashing candidates without the secret', async () => {
    const address = '198.51.100.78';
    await fail(here, 'user:grace@example.com', address);
    const stored = await storedKeyHashes();
    const keys = Object.values(tallyKeysOf('user:grace@example.com', address));
    // What someone with the table but not the secret could compute for a guessed address: a plain
    // SHA-256, or the HMAC under another secret (another installation's).
    const guesses = keys.flatMap((key) => [createHash('sha256').update(key, 'utf8').digest('hex'), hashTallyKey(key, tallySecretFrom('another installation secret, 32+ chars'))]);
    for (const guess of guesses) expect(stored).not.toContain(guess);
    expect(stored).toEqual(hashesOf('user:grace@example.com', address));
  });
});

describe('when the database cannot be asked', () => {
  it('refuses the attempt with the database error, and counts nothing', async () => {
    const url = new URL(db.connectionString);
    const proxy = await startTcpProxy({ targetHost: url.hostname, targetPort: Number(url.port || 5432) });
    url.host = `${proxy.host}:${proxy.port}`;
    const pool = createPool(url.toString(), { max: 2 });
    try {
      const throttle = createSignInThrottle(pool, secret, rules);
      expect(await fail(throttle, 'admin:root', '203.0.113.9')).toBe(0);
      proxy.cut();
      const refused = await throttle.attempt('admin:root', '203.0.113.9').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isTransientDatabaseError(refused)).toBe(true);
      proxy.restore();
      expect(await failuresOf(tallyKeysOf('admin:root', '203.0.113.9').pair)).toBe(1);
      expect(await fail(throttle, 'admin:root', '203.0.113.9')).toBe(0);
    } finally {
      await pool.end();
      await proxy.close();
    }
  });
});
