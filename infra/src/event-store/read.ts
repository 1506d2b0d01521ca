// Reading the log in global order without gaps (DESIGN.md, "The event log" item 3).
import type { EventType } from '@consentry/events';
import type { Queryable } from '../db/pool';
import { eventColumns, toStoredEvent, type EventRow } from './rows';
import type { Checkpoint, StoredEvent } from './types';

export interface ReadCommittedOptions {
  readonly limit: number;
  /** Only these event types (the checkpoint still moves past others when the caller advances it). */
  readonly types?: readonly EventType[];
}

/**
 * The read horizon (events_read_horizon(), migration 001): the oldest transaction of this database
 * still running, or the next one. Taken in a statement of its own, before the read.
 */
export async function readHorizon(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ horizon: number }>({ name: 'read-horizon', text: 'SELECT events_read_horizon() AS horizon' });
  return rows[0]!.horizon;
}

/**
 * Whether any committed event sorts after `after`: one probe of the global-order index, for a
 * reader that polls an idle log. The read horizon costs the database ~0.7 ms (it reads
 * pg_stat_activity); an idle relay polling every 20 ms spent ~4% of a core on it. False here means
 * nothing to read yet: a transaction that commits later has rows after `after` (a gap-safe reader's
 * checkpoint never passes a transaction still running), which the next probe sees.
 */
export async function hasEventsAfter(db: Queryable, after: Checkpoint): Promise<boolean> {
  const { rows } = await db.query({
    name: 'has-events-after',
    // Ordered as the index is, so even a plan made while the log was empty walks the index.
    text: 'SELECT 1 FROM events WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint) ORDER BY transaction_id, position LIMIT 1',
    values: [after.transactionId, after.position],
  });
  return rows.length > 0;
}

/**
 * Events after `after` whose transactions can no longer be joined by new rows: only rows of
 * transactions older than the oldest transaction of this database still running are returned. A
 * row of a slow transaction is therefore never skipped: it stays invisible until it commits and
 * until every older transaction has finished, and then it sorts after the checkpoint.
 */
export async function readCommittedEvents(
  db: Queryable,
  after: Checkpoint,
  options: ReadCommittedOptions,
): Promise<StoredEvent[]> {
  const filterByType = options.types !== undefined;
  const horizon = await readHorizon(db);
  const { rows } = await db.query<EventRow>({
    name: filterByType ? 'read-committed-events-of-types' : 'read-committed-events',
    text: `SELECT ${eventColumns}
             FROM events
            WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint)
              AND transaction_id < $4::text::xid8
              ${filterByType ? 'AND type = ANY($5::text[])' : ''}
            ORDER BY transaction_id, position
            LIMIT $3`,
    values: filterByType
      ? [after.transactionId, after.position, options.limit, horizon, options.types]
      : [after.transactionId, after.position, options.limit, horizon],
  });
  return rows.map(toStoredEvent);
}

/** The newest place a gap-safe reader can reach right now (the end of the committed log). */
export async function readCommittedHead(db: Queryable): Promise<Checkpoint | null> {
  const horizon = await readHorizon(db);
  const { rows } = await db.query<{ transaction_id: number; position: number }>({
    name: 'read-committed-head',
    text: `SELECT transaction_id, position
             FROM events
            WHERE transaction_id < $1::text::xid8
            ORDER BY transaction_id DESC, position DESC
            LIMIT 1`,
    values: [horizon],
  });
  const row = rows[0];
  return row ? { transactionId: row.transaction_id, position: row.position } : null;
}

/** Every event of one stream, in stream order. */
export async function readStream(db: Queryable, streamId: string): Promise<StoredEvent[]> {
  const { rows } = await db.query<EventRow>({
    name: 'read-stream',
    text: `SELECT ${eventColumns} FROM events WHERE stream_id = $1 ORDER BY position`,
    values: [streamId],
  });
  return rows.map(toStoredEvent);
}

/** One event by its id, as it now stands in the log; null when it is not there (or no longer). */
export async function readEvent(db: Queryable, eventId: string): Promise<StoredEvent | null> {
  const { rows } = await db.query<EventRow>({
    name: 'read-event',
    text: `SELECT ${eventColumns} FROM events WHERE event_id = $1`,
    values: [eventId],
  });
  return rows[0] ? toStoredEvent(rows[0]) : null;
}
