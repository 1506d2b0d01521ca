// Test helpers of the compliance jobs: the async projections brought up to date synchronously, by
// the runtime's own catch-up step (read the committed log after the checkpoint, apply a batch and
// the checkpoint in one transaction).
import { readCommittedEvents, readCheckpoint, type Db } from '@consentry/infra';
import { applyProjectionBatch, asyncProjections, checkpointNameOf } from '@consentry/projections';

export async function catchUpProjections(pool: Db): Promise<void> {
  const client = await pool.connect();
  try {
    for (const projection of asyncProjections) {
      for (;;) {
        const checkpoint = await readCheckpoint(client, checkpointNameOf(projection));
        const events = await readCommittedEvents(client, checkpoint, { limit: 5_000, types: projection.canHandle });
        if (events.length === 0) break;
        await applyProjectionBatch(client, projection, events);
      }
    }
  } finally {
    client.release();
  }
}
