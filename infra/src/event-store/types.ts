// The shapes of the event store: what producers append, what readers get back, where a reader is.
import type { EventData, EventType } from '@consentry/events';
import type { DbTransaction } from '../db/pool';

/** Free-form context of an event: who caused it, correlation ids. Never secrets. */
export type EventMetadata = Readonly<Record<string, unknown>>;

export interface NewEventOf<T extends EventType> {
  readonly type: T;
  readonly data: EventData<T>;
  /** Producer-chosen id (the widget makes UUIDs); a retry with the same id is stored once. */
  readonly eventId?: string;
  readonly metadata?: EventMetadata;
}

export type NewEvent = { [T in EventType]: NewEventOf<T> }[EventType];

export interface StoredEventOf<T extends EventType> {
  readonly eventId: string;
  readonly streamId: string;
  readonly streamVersion: number | null;
  readonly type: T;
  readonly schemaVersion: number;
  readonly data: EventData<T>;
  readonly metadata: EventMetadata;
  /** Global order is (transactionId, position); position alone is not commit order. */
  readonly transactionId: number;
  readonly position: number;
  /** ISO timestamp of the append. */
  readonly recordedAt: string;
}

/** A committed event. Switching on `type` narrows `data`. */
export type StoredEvent = { [T in EventType]: StoredEventOf<T> }[EventType];

/** A place in the global order: every event at or before it has been handled. */
export interface Checkpoint {
  readonly transactionId: number;
  readonly position: number;
}

export const startOfLog: Checkpoint = { transactionId: 0, position: 0 };

export function isAfter(event: Checkpoint, checkpoint: Checkpoint): boolean {
  return (
    event.transactionId > checkpoint.transactionId ||
    (event.transactionId === checkpoint.transactionId && event.position > checkpoint.position)
  );
}

export function checkpointOf(event: Checkpoint): Checkpoint {
  return { transactionId: event.transactionId, position: event.position };
}

/**
 * Something applied inside the append's own transaction (an inline projection), so owners read
 * their own writes at once. Structurally the same as a projection of projections/.
 */
export interface InlineHandler {
  readonly name: string;
  readonly canHandle: readonly EventType[];
  apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void>;
}

/** Expected version of a stream before an append: a number, `no_stream` (= 0), or `any`. */
export type ExpectedVersion = number | 'no_stream' | 'any';
