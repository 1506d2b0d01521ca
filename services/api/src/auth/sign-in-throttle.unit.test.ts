// The sign-in throttle's rules, on tallies in memory and a clock the test moves: failures per account
// and address back off progressively; a stranger's failures never hold back an address that has not
// failed; a success starts its address over; tallies are forgotten; parallel guesses count as they
// arrive. (sign-in-throttle.int.test.ts: the same rules on the shared tallies in PostgreSQL.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemorySignInThrottle, type MemorySignInThrottleOptions } from './sign-in-throttle-memory';

function throttleAt(overrides: Partial<MemorySignInThrottleOptions> = {}) {
  const clock = { now: 1_000_000 };
  const throttle = createMemorySignInThrottle({
    freePerAccountAndAddress: 3,
    freePerAddress: 10,
    freePerAccount: 5,
    baseDelayMs: 1_000,
    maxDelayMs: 60_000,
    forgetAfterMs: 15 * 60_000,
    now: () => clock.now,
    ...overrides,
  });
  const fail = async (account: string, address: string) => {
    const attempt = await throttle.attempt(account, address);
    if (!attempt.allowed) return attempt.retryAfterMs;
    await attempt.failed();
    return 0;
  };
  return { clock, throttle, fail };
}

describe('the sign-in throttle', () => {
  it('lets an address fail a few times, then doubles its wait at that account with each failure, up to the cap', async () => {
    const { clock, throttle, fail } = throttleAt();
    for (let guess = 0; guess < 3; guess++) expect(await fail('admin', '203.0.113.9')).toBe(0);
    const waits: number[] = [];
    for (let guess = 0; guess < 9; guess++) {
      const attempt = await throttle.attempt('admin', '203.0.113.9');
      expect(attempt.allowed).toBe(false);
      if (attempt.allowed) return;
      waits.push(attempt.retryAfterMs);
      clock.now += attempt.retryAfterMs;
      expect(await fail('admin', '203.0.113.9')).toBe(0);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it('never holds back the right password from an address that has not failed, however many strangers guessed', async () => {
    const { throttle, fail } = throttleAt();
    for (let stranger = 0; stranger < 200; stranger++) {
      await fail('admin', `198.51.100.${stranger}`);
      await fail('admin', `198.51.100.${stranger}`);
    }
    for (let guess = 0; guess < 50; guess++) await fail('admin', '203.0.113.66');
    const owner = await throttle.attempt('admin', '192.0.2.10');
    expect(owner.allowed).toBe(true);
    // …while the strangers, who have failed at this account, now wait.
    expect((await throttle.attempt('admin', '198.51.100.1')).allowed).toBe(false);
  });

  it('slows an address that sprays many accounts, but not the same accounts from elsewhere', async () => {
    const { throttle, fail } = throttleAt();
    for (let account = 0; account < 10; account++) expect(await fail(`victim${account}@example.com`, '203.0.113.50')).toBe(0);
    expect((await throttle.attempt('victim99@example.com', '203.0.113.50')).allowed).toBe(false);
    expect((await throttle.attempt('victim99@example.com', '192.0.2.1')).allowed).toBe(true);
  });

  it('starts an address over at an account after it signs in there', async () => {
    const { throttle, fail } = throttleAt();
    for (let guess = 0; guess < 2; guess++) await fail('owner@example.com', '192.0.2.1');
    const right = await throttle.attempt('owner@example.com', '192.0.2.1');
    if (!right.allowed) throw new Error('the third attempt is free');
    await right.succeeded();
    for (let guess = 0; guess < 3; guess++) expect(await fail('owner@example.com', '192.0.2.1')).toBe(0);
  });

  it('forgets failures once the quiet period has passed', async () => {
    const { clock, throttle, fail } = throttleAt({ forgetAfterMs: 60_000 });
    for (let guess = 0; guess < 3; guess++) await fail('admin', '203.0.113.9');
    expect((await throttle.attempt('admin', '203.0.113.9')).allowed).toBe(false);
    clock.now += 60_000;
    expect((await throttle.attempt('admin', '203.0.113.9')).allowed).toBe(true);
  });

  it('counts parallel guesses as they arrive, before any of them is answered', async () => {
    const { throttle } = throttleAt();
    const burst = await Promise.all(Array.from({ length: 20 }, () => throttle.attempt('admin', '203.0.113.9')));
    expect(burst.filter((attempt) => attempt.allowed)).toHaveLength(3);
  });

  it('keeps no more tallies than it may', async () => {
    const { throttle, fail } = throttleAt({ maxEntries: 30 });
    for (let guess = 0; guess < 3; guess++) await fail('first@example.com', '10.0.0.0');
    expect((await throttle.attempt('first@example.com', '10.0.0.0')).allowed).toBe(false);
    for (let address = 1; address < 1000; address++) await fail(`owner${address}@example.com`, `10.0.${address >> 8}.${address & 255}`);
    // The oldest tallies were forgotten: the first address may try again.
    expect((await throttle.attempt('first@example.com', '10.0.0.0')).allowed).toBe(true);
  });

  it('holds back only addresses that have failed, for any sequence of attempts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ address: fc.integer({ min: 0, max: 5 }), right: fc.boolean(), pause: fc.integer({ min: 0, max: 5_000 }) }), { maxLength: 120 }),
        async (attempts) => {
          const { clock, throttle } = throttleAt();
          const failedFrom = new Set<number>();
          for (const { address, right, pause } of attempts) {
            clock.now += pause;
            const attempt = await throttle.attempt('admin', `192.0.2.${address}`);
            if (!failedFrom.has(address) && !attempt.allowed) return false;
            if (!attempt.allowed) continue;
            if (right) await attempt.succeeded();
            else {
              await attempt.failed();
              failedFrom.add(address);
            }
          }
          return (await throttle.attempt('admin', '192.0.2.200')).allowed;
        },
      ),
    );
  });
});

describe('an attempt that got no answer about the password', () => {
  it('counts for nothing', async () => {
    const { throttle } = throttleAt();
    for (let outage = 0; outage < 10; outage++) {
      const attempt = await throttle.attempt('admin', '192.0.2.1');
      if (!attempt.allowed) throw new Error('withdrawn attempts must not count');
      await attempt.withdrawn();
    }
    expect((await throttle.attempt('admin', '192.0.2.1')).allowed).toBe(true);
  });
});
