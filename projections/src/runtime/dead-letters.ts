// Dead letters (migration 009, docs/architecture.md "Dead letters"): an event a projection cannot
// apply is set aside with its error, in the transaction that moves the checkpoint past it, so the
// read model goes on for everyone else. The event stays in the log as it was; a retry (or a replay)
// applies it once the projection can, and marks its dead letter resolved.
import { isTransientDatabaseError, readEvent, type Db, type DbTransaction, type StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';
import { lockProjectionCheckpoints } from './partitions';

export interface DeadLetter {
  readonly projection: string;
  readonly eventId: string;
  readonly transactionId: number;
  readonly position: number;
  readonly streamId: string;
  readonly type: string;
  readonly error: string;
  readonly attempts: number;
  readonly firstFailedAt: string;
  readonly lastFailedAt: string;
  readonly resolvedAt: string | null;
}

/** An error's text as stored and shown: its message (and SQLSTATE), never a stack, bounded. */
export function describeProjectionError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof Error ? Reflect.get(error, 'code') : undefined;
  const text = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? `${message} (SQLSTATE ${code})` : message;
  return text.length > 2000 ? `${text.slice(0, 1997)}...` : text;
}

/**
 * Sets an event aside for a projection, or counts another failed attempt of one already set aside
 * (reopening it if it had been resolved). True when it was not open before: log it then, once.
 */
export async function parkEvent(tx: DbTransaction, projection: string, event: StoredEvent, error: unknown): Promise<boolean> {
  const { rows } = await tx.query<{ newly: boolean }>({
    name: 'dead-letters-park',
    text: `INSERT INTO projection_dead_letters AS d (projection, event_id, transaction_id, position, stream_id, type, error)
           VALUES ($1, $2, $3::text::xid8, $4, $5, $6, $7)
           ON CONFLICT (projection, event_id) DO UPDATE
             SET error = EXCLUDED.error, attempts = d.attempts + 1, last_failed_at = now(), resolved_at = NULL
           RETURNING (xmax = 0 OR (SELECT resolved_at IS NOT NULL FROM projection_dead_letters
                                    WHERE projection = $1 AND event_id = $2)) AS newly`,
    values: [projection, event.eventId, event.transactionId, event.position, event.streamId, event.type, describeProjectionError(error)],
  });
  return rows[0]?.newly ?? true;
}

export interface ApplyOutcome {
  readonly applied: StoredEvent[];
  readonly parked: Array<{ readonly event: StoredEvent; readonly error: unknown; readonly newly: boolean }>;
}

/**
 * Applies events inside an open transaction without letting one of them fail the rest: the whole
 * batch first (the fast path), and when that fails for a reason that is about the data, each event
 * under its own savepoint, setting aside those that still fail. Failures of the database itself
 * (connection lost, shutdown, deadlock) are rethrown: those are retried as they are, never parked.
 */
export async function applyOrPark(tx: DbTransaction, projection: Projection, events: readonly StoredEvent[]): Promise<ApplyOutcome> {
  if (events.length === 0) return { applied: [], parked: [] };
  await tx.query('SAVEPOINT projection_batch');
  try {
    await projection.apply(events, tx);
    await tx.query('RELEASE SAVEPOINT projection_batch');
    return { applied: [...events], parked: [] };
  } catch (error) {
    if (isTransientDatabaseError(error)) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT projection_batch');
  }
  const applied: StoredEvent[] = [];
  const parked: Array<{ event: StoredEvent; error: unknown; newly: boolean }> = [];
  for (const event of events) {
    await tx.query('SAVEPOINT projection_event');
    try {
      await projection.apply([event], tx);
      await tx.query('RELEASE SAVEPOINT projection_event');
      applied.push(event);
    } catch (error) {
      if (isTransientDatabaseError(error)) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT projection_event');
      parked.push({ event, error, newly: await parkEvent(tx, projection.name, event, error) });
    }
  }
  await tx.query('RELEASE SAVEPOINT projection_batch');
  return { applied, parked };
}

const deadLetterColumns = `projection, event_id, transaction_id::text::int8 AS transaction_id, position, stream_id, type, error, attempts,
  to_char(first_failed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS first_failed_at,
  to_char(last_failed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_failed_at,
  to_char(resolved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS resolved_at`;

interface DeadLetterRow {
  projection: string;
  event_id: string;
  transaction_id: number;
  position: number;
  stream_id: string;
  type: string;
  error: string;
  attempts: number;
  first_failed_at: string;
  last_failed_at: string;
  resolved_at: string | null;
}

const toDeadLetter = (row: DeadLetterRow): DeadLetter => ({
  projection: row.projection,
  eventId: row.event_id,
  transactionId: Number(row.transaction_id),
  position: Number(row.position),
  streamId: row.stream_id,
  type: row.type,
  error: row.error,
  attempts: row.attempts,
  firstFailedAt: row.first_failed_at,
  lastFailedAt: row.last_failed_at,
  resolvedAt: row.resolved_at,
});

export interface ListDeadLettersOptions {
  readonly projection?: string;
  /** Also the resolved ones (default: open only). */
  readonly includeResolved?: boolean;
  readonly limit?: number;
}

/** Dead letters in log order, open ones only unless asked. */
export async function listDeadLetters(db: Db | DbTransaction, options: ListDeadLettersOptions = {}): Promise<DeadLetter[]> {
  const { rows } = await db.query<DeadLetterRow>({
    text: `SELECT ${deadLetterColumns} FROM projection_dead_letters
            WHERE ($1::text IS NULL OR projection = $1) AND ($2 OR resolved_at IS NULL)
            ORDER BY transaction_id, position, projection
            LIMIT $3`,
    values: [options.projection ?? null, options.includeResolved ?? false, options.limit ?? 1000],
  });
  return rows.map(toDeadLetter);
}

/** Open dead letters per projection (the metrics gauge). */
export async function countOpenDeadLetters(db: Db): Promise<Map<string, number>> {
  const { rows } = await db.query<{ projection: string; count: number }>({
    name: 'dead-letters-open-count',
    text: 'SELECT projection, count(*)::int AS count FROM projection_dead_letters WHERE resolved_at IS NULL GROUP BY projection',
  });
  return new Map(rows.map((row) => [row.projection, row.count]));
}

/**
 * At the start of a replay, in its transaction: every open dead letter of the projection counts as
 * resolved, because the replay applies the whole log again; those that fail again are parked again
 * (reopened) by the same transaction, so when it commits the open ones are exactly those still failing.
 */
export async function resolveAllForReplay(tx: DbTransaction, projection: string): Promise<void> {
  await tx.query('UPDATE projection_dead_letters SET resolved_at = now() WHERE projection = $1 AND resolved_at IS NULL', [projection]);
}

export interface RetryOutcome {
  readonly projection: string;
  readonly eventId: string;
  readonly outcome: 'applied' | 'failed' | 'gone';
  readonly error?: string;
}

/**
 * Applies each open dead letter's event again (optionally of one projection), under the
 * projection's checkpoint lock so a live projector waits rather than interleaves. An event that now
 * applies is resolved; one that still fails stays open with its new error and one more attempt; one
 * no longer in the log (purged or erased since) is resolved as gone.
 */
export async function retryDeadLetters(pool: Db, projections: readonly Projection[], options: { projection?: string } = {}): Promise<RetryOutcome[]> {
  const byName = new Map(projections.map((projection) => [projection.name, projection]));
  const open = await listDeadLetters(pool, { ...(options.projection ? { projection: options.projection } : {}), limit: 100_000 });
  const outcomes: RetryOutcome[] = [];
  for (const letter of open) {
    const projection = byName.get(letter.projection);
    if (!projection) {
      outcomes.push({ projection: letter.projection, eventId: letter.eventId, outcome: 'failed', error: 'No such projection in this version' });
      continue;
    }
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // Every partition: the live projectors wait until this retry commits.
      await lockProjectionCheckpoints(client, projection);
      const event = await readEvent(client, letter.eventId);
      if (!event) {
        await markResolved(client, letter);
        outcomes.push({ projection: letter.projection, eventId: letter.eventId, outcome: 'gone' });
      } else {
        const { applied, parked } = await applyOrPark(client, projection, [event]);
        if (applied.length > 0) {
          await markResolved(client, letter);
          outcomes.push({ projection: letter.projection, eventId: letter.eventId, outcome: 'applied' });
        } else {
          outcomes.push({ projection: letter.projection, eventId: letter.eventId, outcome: 'failed', error: describeProjectionError(parked[0]?.error) });
        }
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  return outcomes;
}

async function markResolved(tx: DbTransaction, letter: DeadLetter): Promise<void> {
  await tx.query('UPDATE projection_dead_letters SET resolved_at = now() WHERE projection = $1 AND event_id = $2', [letter.projection, letter.eventId]);
}
