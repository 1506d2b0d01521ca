// Jobs that change the log below where readers have got to (purge, erasure) must know that every
// projection handling those events has applied them: then the projection's own hook can bring its
// read model in line in the same transaction, and no bus redelivery can bring the old data back.
import type { Checkpoint, DbTransaction, StoredEvent } from '@consentry/infra';
import { asyncProjections, lockProjectionCheckpoints, type Projection } from '@consentry/projections';

export class ReadersBehindError extends Error {
  constructor(readonly projection: string, readonly event: Checkpoint) {
    super(`Projection ${projection} has not yet applied the event at position ${event.position}; waiting for it to catch up`);
    this.name = 'ReadersBehindError';
  }
}

/**
 * Locks the checkpoints (every partition's) of the async projections that handle any of `events` (a projector's next
 * batch waits until the caller commits) and checks each has applied every one of them.
 * Returns, per projection, the events it handles.
 */
export async function lockReadersPast(tx: DbTransaction, events: readonly StoredEvent[]): Promise<Map<Projection, StoredEvent[]>> {
  const handled = new Map<Projection, StoredEvent[]>();
  for (const projection of asyncProjections) {
    const mine = events.filter((event) => projection.canHandle.includes(event.type));
    if (mine.length === 0) continue;
    // Every partition's checkpoint; each event must be applied by its own partition.
    const checkpoints = await lockProjectionCheckpoints(tx, projection);
    const unapplied = checkpoints.firstUnapplied(mine);
    if (unapplied) throw new ReadersBehindError(projection.name, unapplied);
    handled.set(projection, mine);
  }
  return handled;
}
