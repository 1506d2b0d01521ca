// The queue runner's timing, on fake timers and an in-memory queue: when an idle runner claims
// again, what resumeAt holds back, how often a claim sweeps, and claiming with no slot free.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startQueueRunner, type ClaimRequest, type Claimed, type QueueRunner } from './queue-runner';

let runner: QueueRunner | undefined;
beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(async () => {
  const stopping = runner?.stop();
  runner = undefined;
  await vi.runOnlyPendingTimersAsync();
  await stopping;
  vi.useRealTimers();
});

/** Starts a runner whose claims answer from `answers` in turn (then nothing), noting each request and when. */
function run(options: { pollMs: number; concurrency?: number; sweepEveryMs?: number; claimWhenFull?: boolean }, answers: Array<readonly number[] | Claimed<number>> = []) {
  const claims: Array<ClaimRequest & { at: number }> = [];
  const inHand = new Map<number, () => void>();
  runner = startQueueRunner<number>({
    name: 'unit',
    ...options,
    claim: async (request) => {
      claims.push({ ...request, at: Date.now() });
      return answers.shift() ?? [];
    },
    work: (item, { signal }) =>
      new Promise<void>((resolve) => {
        inHand.set(item, resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      }),
  });
  return { claims, inHand };
}

describe('an idle runner', () => {
  it('claims at once, then every pollMs', async () => {
    const { claims } = run({ pollMs: 100 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(claims.map((claim) => claim.at)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1_000]);
  });
});

describe('a claim that says there is more', () => {
  it('is followed by another at once, unless resumeAt is ahead: then at resumeAt (or the poll, if sooner)', async () => {
    const { claims } = run({ pollMs: 1_000 }, [{ items: [], more: true }, { items: [], more: true, resumeAt: 250 }, { items: [], more: true, resumeAt: 5_000 }]);
    await vi.advanceTimersByTimeAsync(2_500);
    expect(claims.map((claim) => claim.at)).toEqual([0, 0, 250, 1_250, 2_250]);
  });
});

describe('a full runner', () => {
  it('claims no more until a slot frees, then at once', async () => {
    const { claims, inHand } = run({ pollMs: 100, concurrency: 2 }, [[1, 2]]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(claims).toHaveLength(1);
    inHand.get(1)!();
    await vi.advanceTimersByTimeAsync(0);
    expect(claims.map((claim) => [claim.at, claim.free])).toEqual([
      [0, 2],
      [1_000, 1],
    ]);
  });

  it('with claimWhenFull, goes on claiming with no slot free', async () => {
    const { claims } = run({ pollMs: 100, concurrency: 1, claimWhenFull: true }, [[1]]);
    await vi.advanceTimersByTimeAsync(200);
    expect(claims.map((claim) => claim.free)).toEqual([1, 0, 0]);
  });
});

describe('sweeps', () => {
  it('come with the first claim, then every sweepEveryMs', async () => {
    const { claims } = run({ pollMs: 100, sweepEveryMs: 250 });
    await vi.advanceTimersByTimeAsync(600);
    expect(claims.map((claim) => claim.sweep)).toEqual([true, false, false, true, false, false, true]);
  });

  it('come with every claim without sweepEveryMs', async () => {
    const { claims } = run({ pollMs: 100 });
    await vi.advanceTimersByTimeAsync(200);
    expect(claims.map((claim) => claim.sweep)).toEqual([true, true, true]);
  });
});
