// What a projection is: a name, the event types it reads, and a batch apply that writes its read
// model inside the transaction it is given (which also carries its checkpoint, or the append).
import { projectionCheckpointName, type DbTransaction, type InlineHandler, type StoredEvent } from '@consentry/infra';

export interface Projection extends InlineHandler {
  /**
   * The read-model tables this projection writes, and nothing else writes: a replay empties them
   * in its transaction and vacuums them after it commits.
   */
  readonly tables: readonly string[];
  /**
   * True when the read model is per website, with nothing shared across websites: it can then be
   * split by website into PROJECTOR_PARTITIONS partitions (runtime/partitions.ts).
   */
  readonly partitionedByWebsite?: boolean;
  /**
   * Called by a purge, in its transaction, with the removed events of this projection's types —
   * after they were deleted from the log, and only once this projection had applied them (its
   * checkpoint is at or past each). It makes the read model what folding the log without them,
   * plus the purge's EventsPurged summary, gives. Absent: the projection keeps nothing of them.
   */
  readonly purged?: (removed: readonly StoredEvent[], purgeEventId: string, tx: DbTransaction) => Promise<void>;
  /**
   * Called at the end of a website's purge run: drop what the read model keeps per day for days
   * before `cutoffDay` (the events behind it are gone from the log).
   */
  readonly purgedBefore?: (websiteId: string, cutoffDay: string, tx: DbTransaction) => Promise<void>;
  /**
   * Called by an erasure, in its transaction, with events of this projection's types as they now
   * stand in the log (personal data removed), once this projection had applied their old versions.
   * Absent: the projection keeps none of the erased fields.
   */
  readonly rewritten?: (events: readonly StoredEvent[], tx: DbTransaction) => Promise<void>;
}

/** Marks a purge summary as already reflected in a read model (see Projection.purged). */
export async function markPurgeCounted(tx: DbTransaction, table: string, purgeEventId: string): Promise<void> {
  await tx.query(`INSERT INTO ${table} (purge_batch_id) VALUES ($1) ON CONFLICT DO NOTHING`, [purgeEventId]);
}

/** True (and forgets the mark) when the purge summary was already reflected; false: add it now. */
export async function consumePurgeMark(tx: DbTransaction, table: string, purgeEventId: string): Promise<boolean> {
  const { rowCount } = await tx.query(`DELETE FROM ${table} WHERE purge_batch_id = $1`, [purgeEventId]);
  return (rowCount ?? 0) > 0;
}

/** Empties a projection's read model (inside a replay's transaction). */
export async function resetReadModel(projection: Projection, tx: DbTransaction): Promise<void> {
  // DELETE, not TRUNCATE: TRUNCATE's exclusive lock would block every reader of the read model for
  // the whole replay, and dashboards must keep reading the old model until the replay commits.
  for (const table of projection.tables) await tx.query(`DELETE FROM ${table}`);
}

export const checkpointNameOf = (projection: Pick<Projection, 'name'>) => projectionCheckpointName(projection.name);
