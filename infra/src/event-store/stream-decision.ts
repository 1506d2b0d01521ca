// One decision on an unversioned (consent) stream: check what the stream holds, then append, with no
// event of the stream able to commit in between. Consent streams carry no version to expect (the
// group-commit path stays one INSERT), so the stream's decision lock stands in for it: a decision
// holds it exclusively; group-commit appends that could change the decision's answer hold it shared
// (docs/architecture.md, "Decisions on consent streams").
import type { Db, DbTransaction } from '../db/pool';
import { withTransaction } from '../db/pool';
import { isTransientDatabaseError } from '../db/errors';
import { prepareEvent } from './append';
import { EventRefusedError, StoreUnavailableError } from './errors';
import type { NewEvent } from './types';

/**
 * The lock key of a stream, as SQL over a text parameter: group commit takes the same key shared.
 * A 64-bit hash; two streams that collide only serialise their decisions, never mix them.
 */
export const streamDecisionLockKeySql = (parameter: string) => `hashtextextended(${parameter}, 7406)`;

/**
 * Runs `decide` in a transaction that holds the stream's decision lock: every guarded append
 * (group commit's `guardsDecisions`) of the stream committed before it is visible to the decision's
 * queries (each statement takes a new snapshot after the lock), and none commits until the decision
 * has: in the log's order, the decision's event is either before such an append or sees it.
 */
export async function decideOnStream<T>(pool: Db, streamId: string, decide: (tx: DbTransaction) => Promise<T>): Promise<T> {
  try {
    return await withTransaction(pool, async (tx) => {
      await tx.query({ name: 'stream-decision-lock', text: `SELECT pg_advisory_xact_lock(${streamDecisionLockKeySql('$1::text')})`, values: [streamId] });
      return decide(tx);
    });
  } catch (error) {
    if (isTransientDatabaseError(error)) throw new StoreUnavailableError('The event store could not commit the decision', { cause: error });
    throw error;
  }
}

/**
 * Appends one event to an unversioned stream inside a decision's transaction, idempotent by event
 * id like group commit: a retry answers `duplicate` and stores nothing.
 */
export async function appendUnversioned(
  tx: DbTransaction,
  streamId: string,
  event: NewEvent & { readonly eventId: string },
): Promise<{ readonly eventId: string; readonly status: 'stored' | 'duplicate' }> {
  const prepared = prepareEvent(event);
  try {
    const { rowCount } = await tx.query({
      name: 'append-unversioned',
      text: `INSERT INTO events (event_id, stream_id, type, schema_version, data, metadata)
             VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)
             ON CONFLICT (event_id) DO NOTHING`,
      values: [prepared.eventId, streamId, prepared.type, prepared.schemaVersion, prepared.data, prepared.metadata],
    });
    return { eventId: prepared.eventId, status: rowCount === 1 ? 'stored' : 'duplicate' };
  } catch (error) {
    if (isTransientDatabaseError(error)) throw error;
    throw new EventRefusedError(prepared.eventId, error);
  }
}
