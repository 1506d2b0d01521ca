// Typed errors of the event store, so callers (the api's error handler, ingest) can map them to
// answers without parsing messages.

/** The stream's version was not what the caller expected: someone else appended first. */
export class ConcurrencyError extends Error {
  readonly code = 'CONCURRENCY_CONFLICT';
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
    readonly actualVersion: number,
  ) {
    super(`Stream ${streamId} is at version ${actualVersion}, expected ${expectedVersion}`);
    this.name = 'ConcurrencyError';
  }
}

/** The store cannot take events right now (database unreachable, or the append queue is full). */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** A producer-supplied event id that is not a UUID. */
export class InvalidEventIdError extends Error {
  readonly code = 'INVALID_EVENT_ID';
  constructor(eventId: string) {
    super(`Event id must be a UUID (got ${JSON.stringify(eventId.slice(0, 64))})`);
    this.name = 'InvalidEventIdError';
  }
}

/**
 * The database refused this one event's data (not the database being down): retrying it as it is
 * cannot succeed. Callers answer it as the caller's mistake, never as an outage.
 */
export class EventRefusedError extends Error {
  readonly code = 'EVENT_REFUSED';
  constructor(
    readonly eventId: string,
    cause: unknown,
  ) {
    super(`The event store refused event ${eventId}: its data cannot be stored`, { cause });
    this.name = 'EventRefusedError';
  }
}
