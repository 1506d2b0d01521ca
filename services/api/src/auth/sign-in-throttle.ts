// Slowing down password guessing without letting a stranger lock anyone out.
//
// Only failures count, in three tallies: per account and address together, per address (one address
// trying many accounts), and per account (many addresses trying one). Past each tally's free
// failures every further attempt waits, the wait doubling with each failure (1 s, 2 s, 4 s, … up to
// 15 minutes), counted from the latest failure. The account-wide tally only slows addresses that have
// themselves failed at that account, so an address that has not failed is never held back: the right
// password from the owner's own browser always goes through, however many strangers guess.
//
// An attempt counts as a failure from the moment it starts (and is taken back if it succeeds), so
// a burst of parallel guesses is tallied as it arrives, not after the first answers. Tallies are
// forgotten 15 minutes after their latest failure; they live in this process's memory, bounded.

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
  /** Tallies kept at most (the least recently failed are forgotten first). */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

export const defaultSignInThrottle: SignInThrottleOptions = {
  freePerAccountAndAddress: 5,
  freePerAddress: 30,
  freePerAccount: 10,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 15 * 60_000,
};

interface Tally {
  failures: number;
  lastFailureAt: number;
}

export type SignInAttempt =
  | { readonly allowed: false; readonly retryAfterMs: number }
  | {
      readonly allowed: true;
      succeeded(): void;
      failed(): void;
      /** The attempt got no answer about the password (the database was away): it counts for nothing. */
      withdrawn(): void;
    };

export interface SignInThrottle {
  /** Whether this address may try this account now; if so, report how the attempt ended. */
  attempt(account: string, address: string): SignInAttempt;
}

export function createSignInThrottle(options: SignInThrottleOptions = defaultSignInThrottle): SignInThrottle {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 100_000;
  const tallies = new Map<string, Tally>();

  function current(key: string, at: number): Tally | undefined {
    const tally = tallies.get(key);
    if (tally && at - tally.lastFailureAt >= options.forgetAfterMs) {
      tallies.delete(key);
      return undefined;
    }
    return tally;
  }

  /** Milliseconds this tally still makes an attempt wait (0: none). */
  function waitFor(tally: Tally | undefined, free: number, at: number): number {
    if (!tally || tally.failures < free) return 0;
    const delay = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.min(tally.failures - free, 40));
    return Math.max(0, tally.lastFailureAt + delay - at);
  }

  function addFailure(key: string, at: number): void {
    const tally = current(key, at);
    tallies.delete(key); // re-inserted last: the map's order is the order of latest failures
    tallies.set(key, { failures: (tally?.failures ?? 0) + 1, lastFailureAt: at });
    if (tallies.size > maxEntries) tallies.delete(tallies.keys().next().value!);
  }

  function takeBack(key: string, at: number): void {
    const tally = current(key, at);
    if (!tally) return;
    if (tally.failures <= 1) tallies.delete(key);
    else tally.failures -= 1;
  }

  return {
    attempt(account, address) {
      const at = now();
      const pairKey = `pair\u0000${account}\u0000${address}`;
      const addressKey = `address\u0000${address}`;
      const accountKey = `account\u0000${account}`;
      const pair = current(pairKey, at);
      const wait = Math.max(
        waitFor(pair, options.freePerAccountAndAddress, at),
        waitFor(current(addressKey, at), options.freePerAddress, at),
        pair ? waitFor(current(accountKey, at), options.freePerAccount, at) : 0,
      );
      if (wait > 0) return { allowed: false, retryAfterMs: wait };
      for (const key of [pairKey, addressKey, accountKey]) addFailure(key, at);
      let settled = false;
      return {
        allowed: true,
        succeeded() {
          if (settled) return;
          settled = true;
          // The address proved it knows the password: its tally at this account starts over, and
          // this attempt is not a failure anywhere.
          tallies.delete(pairKey);
          takeBack(addressKey, now());
          takeBack(accountKey, now());
        },
        failed() {
          settled = true;
        },
        withdrawn() {
          if (settled) return;
          settled = true;
          for (const key of [pairKey, addressKey, accountKey]) takeBack(key, now());
        },
      };
    },
  };
}
