// Projection tests as given / then, after Emmett's projection specifications: given these events,
// applied by the projection's batch apply in one transaction on a test database (as a projector
// applies a batch), then these rows. Each `given` adds to what the database already holds.
import { randomUUID } from 'node:crypto';
import { prepareEvent, withTransaction, type Db, type NewEvent, type StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export interface ProjectionThen {
  /** Asserts that the query answers exactly these rows. */
  thenRows(sql: string, params: readonly unknown[], expected: readonly Record<string, unknown>[]): Promise<void>;
  /** Runs checks of the test's own (the read model's queries) once the events are applied. */
  then(check: (db: Db) => Promise<void>): Promise<void>;
}

export interface ProjectionSpec {
  given(events: readonly (NewEvent | StoredEvent)[], options?: { readonly streamId?: string; readonly recordedAt?: string }): ProjectionThen;
}

/** Positions only grow, across every spec of the test process, as in the log. */
let lastPosition = 0;

/** An event as the store would hand it to a projector: validated, its data as read back from jsonb. */
function storedEventOf(event: NewEvent | StoredEvent, streamId: string, recordedAt: string): StoredEvent {
  if ('position' in event) return event;
  const prepared = prepareEvent(event);
  lastPosition += 1;
  return {
    eventId: prepared.eventId,
    streamId,
    streamVersion: null,
    type: event.type,
    schemaVersion: prepared.schemaVersion,
    data: JSON.parse(prepared.data),
    metadata: JSON.parse(prepared.metadata),
    transactionId: lastPosition,
    position: lastPosition,
    recordedAt,
  } as StoredEvent;
}

export function projectionSpec(projection: Projection, db: Db): ProjectionSpec {
  return {
    given(events, options = {}) {
      const recordedAt = options.recordedAt ?? new Date().toISOString();
      const batch = events.map((event) => storedEventOf(event, options.streamId ?? `projection-spec-${randomUUID()}`, recordedAt));
      const apply = () => withTransaction(db, (tx) => projection.apply(batch.filter((event) => projection.canHandle.includes(event.type)), tx));
      return {
        async thenRows(sql, params, expected) {
          await apply();
          const { rows } = await db.query(sql, [...params]);
          // Loaded here, not at import: non-test code (benchmarks) imports this package's testing entry.
          const { expect } = await import('vitest');
          expect(rows).toEqual(expected);
        },
        async then(check) {
          await apply();
          await check(db);
        },
      };
    },
  };
}
