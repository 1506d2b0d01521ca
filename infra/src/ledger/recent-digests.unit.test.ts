// The relay's digests for the sealer of its process: handed out only where they continue the chain
// the sealer is at, started over when a batch does not continue the run, bounded.
import { describe, expect, it } from 'vitest';
import { createRecentDigests } from './recent-digests';
import { eventDigest, type SealedEvent } from './sealed-events';

/** Events at positions first…first+count-1 of transaction `transactionId`. */
function events(transactionId: number, first: number, count: number): SealedEvent[] {
  return Array.from({ length: count }, (_, index) => ({
    position: first + index,
    transactionId: String(transactionId),
    eventId: `00000000-0000-4000-8000-${String(first + index).padStart(12, '0')}`,
    streamId: 'consent-test',
    streamVersion: null,
    type: 'ConsentGiven',
    schemaVersion: 3,
    data: { n: first + index },
    metadata: {},
    recordedAt: '2026-11-26T08:00:00.000001Z',
  }));
}

const at = (transactionId: number, position: number) => ({ transactionId: String(transactionId), position });
const positionsOf = (digests: ReadonlyArray<{ position: number }> | null) => digests?.map((digest) => digest.position) ?? null;

describe('recent digests', () => {
  it('hands out the digests right after the last sealed event, across batches', () => {
    const recent = createRecentDigests();
    const first = events(10, 1, 3);
    recent.add({ transactionId: 9, position: 0 }, first);
    recent.add({ transactionId: 10, position: 3 }, events(12, 4, 2));
    expect(recent.size()).toBe(5);
    expect(positionsOf(recent.takeAfter(at(9, 0), 100))).toEqual([1, 2, 3, 4, 5]);
    expect(positionsOf(recent.takeAfter(at(10, 2), 100))).toEqual([3, 4, 5]);
    expect(positionsOf(recent.takeAfter(at(10, 2), 2))).toEqual([3, 4]);
    expect(recent.takeAfter(at(10, 1), 1)![0]!.digest).toEqual(Buffer.from(eventDigest(first[1]!), 'hex'));
    expect(recent.takeAfter(at(12, 5), 100)).toBeNull(); // nothing after the run's end
    expect(recent.takeAfter(at(8, 0), 100)).toBeNull(); // before the run: the sealer reads the log
    expect(recent.takeAfter(at(11, 4), 100)).toBeNull(); // not a place in the run
    expect(recent.takeAfter(null, 100)).toBeNull(); // the first seal of a ledger reads the log
  });

  it('starts over when a batch does not continue the run', () => {
    const recent = createRecentDigests();
    recent.add({ transactionId: 9, position: 0 }, events(10, 1, 3));
    // The relay read again from an older checkpoint (it restarted, or the bus refused a batch).
    recent.add({ transactionId: 9, position: 0 }, events(10, 1, 2));
    expect(positionsOf(recent.takeAfter(at(9, 0), 100))).toEqual([1, 2]);
    // A later stretch, after a gap the run never saw.
    recent.add({ transactionId: 20, position: 40 }, events(21, 41, 2));
    expect(recent.takeAfter(at(9, 0), 100)).toBeNull();
    expect(positionsOf(recent.takeAfter(at(20, 40), 100))).toEqual([41, 42]);
  });

  it('orders transaction ids as numbers, not as text', () => {
    const recent = createRecentDigests();
    recent.add({ transactionId: 8, position: 0 }, [...events(9, 1, 2), ...events(10, 3, 2), ...events(100, 5, 2)]);
    expect(positionsOf(recent.takeAfter(at(9, 2), 100))).toEqual([3, 4, 5, 6]);
    expect(positionsOf(recent.takeAfter(at(10, 4), 100))).toEqual([5, 6]);
  });

  it('forgets what is sealed, and keeps at most its capacity', () => {
    const recent = createRecentDigests(4);
    recent.add({ transactionId: 9, position: 0 }, events(10, 1, 3));
    recent.release(at(10, 2));
    expect(recent.size()).toBe(1);
    expect(recent.takeAfter(at(10, 1), 100)).toBeNull();
    expect(positionsOf(recent.takeAfter(at(10, 2), 100))).toEqual([3]);

    recent.add({ transactionId: 10, position: 3 }, events(11, 4, 5));
    expect(recent.size()).toBe(4);
    // The oldest went: what followed them is still handed out, they are read from the log.
    expect(recent.takeAfter(at(10, 2), 100)).toBeNull();
    expect(positionsOf(recent.takeAfter(at(11, 4), 100))).toEqual([5, 6, 7, 8]);
    expect(positionsOf(recent.takeAfter(at(11, 5), 100))).toEqual([6, 7, 8]);
  });
});
