// The digests of the stretch of the log this process's relay read last, for the sealer in the same
// process (`consentry start`: both in the primary). The sealer seals from here instead of reading
// the same events back from the database a few seconds later: that read cost PostgreSQL ~12 µs of
// CPU per consent (it writes every event's data out as text again) and this process ~4 µs to parse
// it (bench:e2e, pg_stat_statements). What the run does not hold, the sealer reads as before.
//
// The run is contiguous by construction: each batch is added with the place its read started, and a
// batch that does not start where the run ends (the relay restarted, lost its lock, or read a batch
// again after the bus refused it) starts the run over. Every event in it was read below a read
// horizon, so it is committed and nothing can join the log before it: the sealer may seal it as
// well as anything it reads itself. An erasure or purge that rewrites an event after its digest was
// taken is recorded with the new digest, which verification accepts either way (verify.ts).
import type { Checkpoint } from '../event-store/types';
import { eventDigest, type LogKey, type SealedEvent } from './sealed-events';

/** What a seal needs of an event: its place, its type (seals are not sealed alone) and its digest. */
export interface SealedDigest {
  readonly position: number;
  /** Decimal text, as in the sealed form. */
  readonly transactionId: string;
  readonly type: string;
  /** SHA-256 of the event's canonical JSON (eventDigest), 32 bytes. */
  readonly digest: Buffer;
}

export const sealedDigestOf = (event: SealedEvent): SealedDigest => ({
  position: event.position,
  transactionId: event.transactionId,
  type: event.type,
  digest: Buffer.from(eventDigest(event), 'hex'),
});

const sameKey = (a: Checkpoint | LogKey, b: Checkpoint | LogKey) => a.position === b.position && String(a.transactionId) === String(b.transactionId);

/** Global order: transaction id (decimal text, compared as a number), then position. */
function compareKeys(a: LogKey, b: LogKey): number {
  if (a.transactionId !== b.transactionId) {
    if (a.transactionId.length !== b.transactionId.length) return a.transactionId.length - b.transactionId.length;
    return a.transactionId < b.transactionId ? -1 : 1;
  }
  return a.position - b.position;
}

export interface RecentDigests {
  /** `batch` was read right after `after`; a batch that does not continue the run starts it over. */
  add(after: Checkpoint, batch: readonly SealedEvent[]): void;
  /**
   * Up to `limit` digests of the events right after `after` (the last sealed event), or null when the
   * run does not reach back to it or holds nothing after it (the sealer then reads the log itself).
   */
  takeAfter(after: LogKey | null, limit: number): SealedDigest[] | null;
  /** Forgets the run up to and including `upTo` (sealed). */
  release(upTo: LogKey): void;
  /** Digests held now (tests, metrics). */
  size(): number;
}

/** At most `capacity` digests (~150 bytes each) are kept: beyond it the oldest go. */
export function createRecentDigests(capacity = 100_000): RecentDigests {
  // entries[start…] is the run, in log order; `runAfter` is the place just before its first entry.
  let entries: SealedDigest[] = [];
  let start = 0;
  let runAfter: LogKey | Checkpoint | null = null;

  const last = (): SealedDigest | null => (entries.length > start ? entries[entries.length - 1]! : null);

  function dropBefore(index: number): void {
    if (index <= start) return;
    runAfter = entries[index - 1]!;
    start = index;
    // Compact once the dead prefix is as long as the run.
    if (start > 1024 && start * 2 > entries.length) {
      entries = entries.slice(start);
      start = 0;
    }
  }

  /** The index of the entry at `key` in the run, or -1 (a binary search: the run is in log order). */
  function indexOf(key: LogKey): number {
    let low = start;
    let high = entries.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = compareKeys(entries[middle]!, key);
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  return {
    add(after, batch) {
      if (batch.length === 0) return;
      const end = last() ?? runAfter;
      if (end === null || !sameKey(end, after)) {
        entries = [];
        start = 0;
        runAfter = after;
      }
      for (const event of batch) entries.push(sealedDigestOf(event));
      if (entries.length - start > capacity) dropBefore(entries.length - capacity);
    },

    takeAfter(after, limit) {
      if (after === null || runAfter === null) return null;
      let from: number;
      if (sameKey(runAfter, after)) from = start;
      else {
        const index = indexOf(after);
        if (index < 0) return null;
        from = index + 1;
      }
      return from < entries.length ? entries.slice(from, Math.min(entries.length, from + limit)) : null;
    },

    release(upTo) {
      const index = indexOf(upTo);
      if (index >= 0) dropBefore(index + 1);
    },

    size: () => entries.length - start,
  };
}
