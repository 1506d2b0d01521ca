// Test helpers of the compliance jobs: the async projections brought up to date synchronously, by
// the runtime's own catch-up step (read the committed log after the checkpoint, apply a batch and
// the checkpoint in one transaction), and a search of every table for a value.
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

/** Every table of the database (public schema) whose rows, as text, contain `needle`, with the count. */
export async function tablesHolding(pool: Db, needle: string): Promise<Record<string, number>> {
  const { rows: tables } = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const found: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    const { rows } = await pool.query<{ count: number }>(`SELECT count(*)::int8 AS count FROM "${table}" AS t WHERE t::text LIKE '%' || $1 || '%'`, [needle]);
    if (rows[0]!.count > 0) found[table] = rows[0]!.count;
  }
  return found;
}
