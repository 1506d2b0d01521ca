// Claim renewal on fake timers: every everyMs, one renewal at a time, failures reported and retried,
// and a stop that waits for the renewal under way and ends the others.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepClaim } from './claim-renewal';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a claim renewal', () => {
  it('renews every everyMs, never two at once, and reports a failure without stopping', async () => {
    const started: number[] = [];
    const errors: unknown[] = [];
    let finishRenewal: (() => void) | undefined;
    const renewal = keepClaim(
      () => {
        started.push(Date.now());
        if (started.length === 2) return Promise.reject(new Error('database gone'));
        // The third renewal hangs until the test lets it finish.
        if (started.length === 3) return new Promise<void>((resolve) => (finishRenewal = resolve));
        return Promise.resolve();
      },
      { everyMs: 100, onError: (error) => errors.push(error) },
    );
    await vi.advanceTimersByTimeAsync(1_000);
    // The third hung from 300 on: nothing more started meanwhile.
    expect(started).toEqual([100, 200, 300]);
    expect(errors).toEqual([new Error('database gone')]);
    finishRenewal!();
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toEqual([100, 200, 300, 1_100]);
    await renewal.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started).toHaveLength(4);
  });

  it('stops only once the renewal under way has ended', async () => {
    let finishRenewal: (() => void) | undefined;
    const renewal = keepClaim(() => new Promise<void>((resolve) => (finishRenewal = resolve)), { everyMs: 100 });
    await vi.advanceTimersByTimeAsync(100);
    let stopped = false;
    const stopping = renewal.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stopped).toBe(false);
    finishRenewal!();
    await stopping;
    expect(stopped).toBe(true);
  });
});
