// Appending to owner-side streams: validated, idempotent by event id, guarded by the expected
// stream version, with inline projections applied in the same transaction (read-your-writes).
import { randomUUID } from 'node:crypto';
import { getEventDefinition, parseEventData } from '@consentry/events';
import { withTransaction, type Db, type DbTransaction, type Queryable } from '../db/pool';
import { projectionCheckpointName, shareCheckpoint } from './checkpoints';
import { ConcurrencyError, InvalidEventIdError } from './errors';
import { eventColumns, toStoredEvent, type EventRow } from './rows';
import type { ExpectedVersion, InlineHandler, NewEvent, StoredEvent } from './types';

export interface AppendOptions {
  readonly expectedVersion?: ExpectedVersion;
  readonly inlineProjections?: readonly InlineHandler[];
}

export interface AppendResult {
  /** The stream's version after the append (unchanged for a duplicate). */
  readonly nextExpectedVersion: number;
  /** The events as stored; empty when every event id was already stored (a retried append). */
  readonly stored: readonly StoredEvent[];
}

interface PreparedEvent {
  readonly eventId: string;
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: string;
  readonly metadata: string;
}

/** Validates and serialises events; throws UnknownEventTypeError / InvalidEventError. */
export function prepareEvent(event: NewEvent): PreparedEvent {
  const data = parseEventData(event.type, event.data);
  if (event.eventId !== undefined && !uuidPattern.test(event.eventId)) {
    throw new InvalidEventIdError(event.eventId);
  }
  return {
    // Lower case, so the id a producer retries with compares equal to the stored one.
    eventId: event.eventId?.toLowerCase() ?? randomUUID(),
    type: event.type,
    schemaVersion: getEventDefinition(event.type).version,
    data: JSON.stringify(data),
    metadata: JSON.stringify(event.metadata ?? {}),
  };
}

const UNIQUE_VIOLATION = '23505';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Appends events to a versioned stream in one transaction. With `expectedVersion` a number (or
 * `no_stream`), a stream at any other version fails with ConcurrencyError; two writers racing for
 * the same version are separated by the unique index on (stream_id, stream_version).
 */
export async function appendToStream(
  pool: Db,
  streamId: string,
  events: readonly NewEvent[],
  options: AppendOptions = {},
): Promise<AppendResult> {
  if (events.length === 0) throw new Error('appendToStream needs at least one event');
  const prepared = events.map(prepareEvent);
  const expected = expectedNumber(options.expectedVersion);
  // A lost race is retried when the caller does not care about the version (`any`) or when the
  // race was with a retry of the same events (event id conflict: the next attempt sees them stored).
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(pool, (tx) =>
        appendPrepared(tx, streamId, prepared, expected, options.inlineProjections ?? []),
      );
    } catch (error) {
      const lostVersionRace = isUniqueViolationOf(error, 'events_stream_version_key');
      const lostIdRace = isUniqueViolationOf(error, 'events_event_id_key');
      if (lostVersionRace && expected !== undefined) {
        throw new ConcurrencyError(streamId, expected, await readStreamVersion(pool, streamId));
      }
      if ((lostVersionRace || lostIdRace) && attempt < 3) continue;
      throw error;
    }
  }
}

/**
 * Appends inside a transaction the caller holds, for jobs that must change other tables in the same
 * transaction (a seal's leaves, a purge's deletions). No retry: a lost race surfaces as
 * ConcurrencyError or the unique violation, and the caller's transaction is rolled back.
 */
export async function appendInTransaction(
  tx: DbTransaction,
  streamId: string,
  events: readonly NewEvent[],
  options: AppendOptions = {},
): Promise<AppendResult> {
  if (events.length === 0) throw new Error('appendInTransaction needs at least one event');
  return appendPrepared(tx, streamId, events.map(prepareEvent), expectedNumber(options.expectedVersion), options.inlineProjections ?? []);
}

async function appendPrepared(
  tx: DbTransaction,
  streamId: string,
  prepared: readonly PreparedEvent[],
  expected: number | undefined,
  inlineProjections: readonly InlineHandler[],
): Promise<AppendResult> {
  const currentVersion = await readStreamVersion(tx, streamId);
  const ids = prepared.map((event) => event.eventId);
  const { rows: existing } = await tx.query<{ event_id: string }>({
    // Unnamed, so planned for its array each time: a named statement keeps a generic plan made
    // while the log was small (a sequential scan) as it grows (projections/src/analytics).
    text: 'SELECT event_id FROM events WHERE event_id = ANY($1::uuid[])',
    values: [ids],
  });
  if (existing.length === prepared.length) {
    // The whole append was stored before (a retry): answer as the first time did, change nothing.
    return { nextExpectedVersion: currentVersion, stored: [] };
  }
  if (existing.length > 0) {
    throw new Error(`Append to ${streamId} mixes new events with already stored ones (${existing[0]?.event_id})`);
  }
  if (expected !== undefined && expected !== currentVersion) {
    throw new ConcurrencyError(streamId, expected, currentVersion);
  }
  const { rows } = await tx.query<EventRow>({
    name: 'append-to-stream',
    text: `INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata)
           SELECT e.event_id, $2, $3 + e.ordinality, e.type, e.schema_version, e.data, e.metadata
             FROM unnest($1::uuid[], $4::text[], $5::int2[], $6::jsonb[], $7::jsonb[])
                  WITH ORDINALITY AS e(event_id, type, schema_version, data, metadata, ordinality)
            ORDER BY e.ordinality
           RETURNING ${eventColumns}`,
    values: [
      ids,
      streamId,
      currentVersion,
      prepared.map((event) => event.type),
      prepared.map((event) => event.schemaVersion),
      prepared.map((event) => event.data),
      prepared.map((event) => event.metadata),
    ],
  });
  const stored = rows.map(toStoredEvent).sort((a, b) => a.position - b.position);
  for (const projection of inlineProjections) {
    const handled = stored.filter((event) => projection.canHandle.includes(event.type));
    if (handled.length === 0) continue;
    await shareCheckpoint(tx, projectionCheckpointName(projection.name));
    await projection.apply(handled, tx);
  }
  return { nextExpectedVersion: currentVersion + stored.length, stored };
}

/** The stream's version: its last event's stream_version, 0 for no events. */
export async function readStreamVersion(db: Queryable, streamId: string): Promise<number> {
  const { rows } = await db.query<{ version: number }>({
    name: 'read-stream-version',
    text: `SELECT coalesce(max(stream_version), 0)::int8 AS version
             FROM events WHERE stream_id = $1 AND stream_version IS NOT NULL`,
    values: [streamId],
  });
  return rows[0]?.version ?? 0;
}

function expectedNumber(expected: ExpectedVersion | undefined): number | undefined {
  if (expected === undefined || expected === 'any') return undefined;
  return expected === 'no_stream' ? 0 : expected;
}

function isUniqueViolationOf(error: unknown, constraint: string): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === UNIQUE_VIOLATION &&
    (error as { constraint?: unknown }).constraint === constraint
  );
}
