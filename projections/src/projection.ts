// What a projection is: a name, the event types it reads, and a batch apply that writes its read
// model inside the transaction it is given (which also carries its checkpoint, or the append).
import { projectionCheckpointName, type DbTransaction, type InlineHandler } from '@consentry/infra';

export interface Projection extends InlineHandler {
  /** Empties the read model, inside the replay's transaction. */
  reset(tx: DbTransaction): Promise<void>;
}

export const checkpointNameOf = (projection: Pick<Projection, 'name'>) => projectionCheckpointName(projection.name);
