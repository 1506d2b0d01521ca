// The sealed form of an event: every column of its row, written so that it can be recomputed
// exactly from the database at any later time (the transaction id as decimal text, the record time
// with its microseconds). Its digest is SHA-256 over its canonical JSON.
import type { Queryable } from '../db/pool';
import { readHorizon } from '../event-store/read';
import { toStoredEvent, type EventRow } from '../event-store/rows';
import type { Checkpoint, StoredEvent } from '../event-store/types';
import { canonicalJson, sha256Hex } from './canonical';

export interface SealedEvent {
  readonly position: number;
  readonly transactionId: string;
  readonly eventId: string;
  readonly streamId: string;
  readonly streamVersion: number | null;
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: unknown;
  readonly metadata: unknown;
  /** UTC, microseconds: `2024-05-01T08:00:00.123456Z`. */
  readonly recordedAt: string;
}

/** A place in the log's global order, with the transaction id as decimal text (xid8). */
export interface LogKey {
  readonly transactionId: string;
  readonly position: number;
}

/**
 * The columns of a sealed event. Its transaction_id is text: a query that orders by the log's
 * global order must name `events.transaction_id` (a bare name would sort by this text column,
 * where '10' comes before '9').
 */
export const sealedEventColumns = `position, transaction_id::text AS transaction_id, event_id, stream_id, stream_version, type,
       schema_version, data, metadata, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at`;

/** An events row as `sealedEventColumns` reads it: the transaction id and the time as text. */
export type SealedEventRow = Omit<EventRow, 'transaction_id' | 'recorded_at'> & { transaction_id: string; recorded_at: string };

export const toSealedEvent = (row: SealedEventRow): SealedEvent => ({
  position: row.position,
  transactionId: row.transaction_id,
  eventId: row.event_id,
  streamId: row.stream_id,
  streamVersion: row.stream_version,
  type: row.type,
  schemaVersion: row.schema_version,
  data: row.data,
  metadata: row.metadata,
  recordedAt: row.recorded_at,
});

export const eventDigest = (event: SealedEvent): string => sha256Hex(canonicalJson(event));

/** Events in the global order after `after` (exclusive) up to `upTo` (inclusive), at most `limit`. */
export async function readSealedEvents(
  db: Queryable,
  after: LogKey | null,
  upTo: LogKey | { readonly horizon: string },
  limit: number,
): Promise<SealedEvent[]> {
  const bound = 'horizon' in upTo ? 'transaction_id < $3::xid8' : '(transaction_id, position) <= ($3::xid8, $4::int8)';
  const { rows } = await db.query<SealedEventRow>({
    text: `SELECT ${sealedEventColumns}
             FROM events
            WHERE (transaction_id, position) > ($1::xid8, $2::int8) AND ${bound}
            ORDER BY events.transaction_id, events.position
            LIMIT ${'horizon' in upTo ? '$4' : '$5'}`,
    values:
      'horizon' in upTo
        ? [after?.transactionId ?? '0', after?.position ?? 0, upTo.horizon, limit]
        : [after?.transactionId ?? '0', after?.position ?? 0, upTo.transactionId, upTo.position, limit],
  });
  return rows.map(toSealedEvent);
}

/**
 * readCommittedEvents for the relay when the sealer shares its process: the same events, read once
 * in their sealed form (the bytes as stored, the transaction id as text, the time to the
 * microsecond), as the StoredEvents the bus carries and as the SealedEvents the sealer's digests are
 * taken over (recent-digests.ts).
 */
export async function readCommittedSealedEvents(
  db: Queryable,
  after: Checkpoint,
  limit: number,
): Promise<{ readonly stored: StoredEvent[]; readonly sealed: SealedEvent[] }> {
  const horizon = String(await readHorizon(db));
  const sealed = await readSealedEvents(db, { transactionId: String(after.transactionId), position: after.position }, { horizon }, limit);
  const stored = sealed.map((event) =>
    toStoredEvent({
      position: event.position,
      transaction_id: Number(event.transactionId),
      event_id: event.eventId,
      stream_id: event.streamId,
      stream_version: event.streamVersion,
      type: event.type,
      schema_version: event.schemaVersion,
      data: event.data,
      metadata: event.metadata as Record<string, unknown>,
      // eventColumns' form: milliseconds, cut (not rounded) as PostgreSQL's to_char cuts them.
      recorded_at: `${event.recordedAt.slice(0, 23)}Z`,
    }),
  );
  return { stored, sealed };
}

export function packPositions(positions: readonly number[]): Buffer {
  const buffer = Buffer.alloc(positions.length * 8);
  positions.forEach((position, index) => buffer.writeBigInt64BE(BigInt(position), index * 8));
  return buffer;
}

export function unpackPositions(buffer: Buffer): number[] {
  const positions: number[] = [];
  for (let offset = 0; offset < buffer.length; offset += 8) positions.push(Number(buffer.readBigInt64BE(offset)));
  return positions;
}

export function unpackDigests(buffer: Buffer): Buffer[] {
  const digests: Buffer[] = [];
  for (let offset = 0; offset < buffer.length; offset += 32) digests.push(buffer.subarray(offset, offset + 32));
  return digests;
}
