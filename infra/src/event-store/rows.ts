// Mapping between `events` rows and StoredEvent, shared by every reader.
import type { StoredEvent } from './types';

export const eventColumns =
  'position, transaction_id, event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at';

export interface EventRow {
  position: number;
  transaction_id: number;
  event_id: string;
  stream_id: string;
  stream_version: number | null;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: Date;
}

/** Rows come only from `events`, where every row passed validation at append. */
export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    eventId: row.event_id,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    transactionId: row.transaction_id,
    position: row.position,
    recordedAt: row.recorded_at.toISOString(),
  } as StoredEvent;
}
