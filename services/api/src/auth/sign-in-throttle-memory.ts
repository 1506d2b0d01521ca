// The sign-in throttle's rules (sign-in-throttle.ts) on tallies in this process's memory, on a clock
// the caller may move: what the unit tests check the rules with. The api itself keeps its tallies in
// PostgreSQL, where every process counts against the same ones.
import { liveTally, tallyKeysOf, waitBefore, type SignInThrottle, type SignInThrottleOptions, type Tally } from './sign-in-throttle';

export interface MemorySignInThrottleOptions extends SignInThrottleOptions {
  /** Tallies kept at most (the least recently failed are forgotten first). */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

export function createMemorySignInThrottle(options: MemorySignInThrottleOptions): SignInThrottle {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 100_000;
  const tallies = new Map<string, Tally>();

  function current(key: string, at: number): Tally | undefined {
    const tally = liveTally(tallies.get(key), at, options);
    if (!tally) tallies.delete(key);
    return tally;
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
    else tallies.set(key, { ...tally, failures: tally.failures - 1 });
  }

  return {
    // Nothing here awaits, so each attempt is decided and counted before the next one starts.
    async attempt(account, address) {
      const at = now();
      const keys = tallyKeysOf(account, address);
      const wait = waitBefore({ pair: current(keys.pair, at), address: current(keys.address, at), account: current(keys.account, at) }, at, options);
      if (wait > 0) return { allowed: false, retryAfterMs: wait };
      for (const key of Object.values(keys)) addFailure(key, at);
      let settled = false;
      return {
        allowed: true,
        async succeeded() {
          if (settled) return;
          settled = true;
          tallies.delete(keys.pair);
          takeBack(keys.address, now());
          takeBack(keys.account, now());
        },
        async failed() {
          settled = true;
        },
        async withdrawn() {
          if (settled) return;
          settled = true;
          for (const key of Object.values(keys)) takeBack(key, now());
        },
      };
    },
  };
}
