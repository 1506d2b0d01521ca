// Checkpoints of the log's readers (the relay, each async projection), stored beside the read
// models so a reader's progress commits in the same transaction as its work.
import type { Queryable } from '../db/pool';
import { startOfLog, type Checkpoint } from './types';

/** The checkpoint row of a projection (async ones track progress in it; all serialise replay on it). */
export const projectionCheckpointName = (projectionName: string) => `projection:${projectionName}`;

/**
 * Taken by an inline projection in the append's transaction: a replay of the same projection holds
 * the row exclusively, so the append waits for the replay to commit and then applies on top of the
 * rebuilt read model, instead of writing into a table the replay is resetting.
 */
export async function shareCheckpoint(tx: Queryable, name: string): Promise<void> {
  await tx.query({ name: 'ensure-checkpoint', text: 'INSERT INTO checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', values: [name] });
  await tx.query({ name: 'share-checkpoint', text: 'SELECT 1 FROM checkpoints WHERE name = $1 FOR SHARE', values: [name] });
}

export async function readCheckpoint(db: Queryable, name: string): Promise<Checkpoint> {
  const { rows } = await db.query<{ transaction_id: number; position: number }>({
    name: 'read-checkpoint',
    text: 'SELECT transaction_id, position FROM checkpoints WHERE name = $1',
    values: [name],
  });
  const row = rows[0];
  return row ? { transactionId: row.transaction_id, position: row.position } : startOfLog;
}

/**
 * Reads a checkpoint and locks its row until the transaction ends, creating it if needed. Two
 * writers of the same read model (a live projector and a replay) serialise on this lock.
 */
export async function lockCheckpoint(tx: Queryable, name: string, options: { create?: boolean } = {}): Promise<Checkpoint> {
  if (options.create ?? true) await ensureCheckpoint(tx, name);
  const { rows } = await tx.query<{ transaction_id: number; position: number }>({
    name: 'lock-checkpoint',
    text: 'SELECT transaction_id, position FROM checkpoints WHERE name = $1 FOR UPDATE',
    values: [name],
  });
  const row = rows[0];
  // Gone: a replay moved the projection to another partition count (and removed it, perhaps while
  // this waited for its lock). Going on from the start of the log would apply everything again.
  if (!row) throw new Error(`Checkpoint ${name} no longer exists (a replay repartitioned its projection); start again`);
  return { transactionId: row.transaction_id, position: row.position };
}

/** Creates a checkpoint at the start of the log unless it exists. */
export async function ensureCheckpoint(tx: Queryable, name: string): Promise<void> {
  await tx.query({ name: 'ensure-checkpoint', text: 'INSERT INTO checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', values: [name] });
}

export async function writeCheckpoint(db: Queryable, name: string, checkpoint: Checkpoint): Promise<void> {
  await db.query({
    name: 'write-checkpoint',
    text: `INSERT INTO checkpoints (name, transaction_id, position, updated_at)
           VALUES ($1, $2::text::xid8, $3, now())
           ON CONFLICT (name) DO UPDATE
             SET transaction_id = EXCLUDED.transaction_id, position = EXCLUDED.position, updated_at = now()`,
    values: [name, checkpoint.transactionId, checkpoint.position],
  });
}
