// What a projection is: a name, the event types it reads, and a batch apply that writes its read
// model inside the transaction it is given (which also carries its checkpoint, or the append).
import { projectionCheckpointName, type DbTransaction, type InlineHandler } from '@consentry/infra';

export interface Projection extends InlineHandler {
  /**
   * The read-model tables this projection writes, and nothing else writes: a replay empties them
   * in its transaction and vacuums them after it commits.
   */
  readonly tables: readonly string[];
}

/** Empties a projection's read model (inside a replay's transaction). */
export async function resetReadModel(projection: Projection, tx: DbTransaction): Promise<void> {
  // DELETE, not TRUNCATE: TRUNCATE's exclusive lock would block every reader of the read model for
  // the whole replay, and dashboards must keep reading the old model until the replay commits.
  for (const table of projection.tables) await tx.query(`DELETE FROM ${table}`);
}

export const checkpointNameOf = (projection: Pick<Projection, 'name'>) => projectionCheckpointName(projection.name);
