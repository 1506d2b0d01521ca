// The one way to run a command against a versioned (owner-side) stream, after Emmett's
// CommandHandler: read what the decider folds, decide, append expecting the version read, with the
// caller's inline handlers in the append's transaction. See docs/architecture.md, "The event log".
import type { StreamDecider } from '@consentry/events';
import type { Db, Queryable } from '../db/pool';
import { appendToStream, readStreamVersion } from './append';
import { ConcurrencyError } from './errors';
import { eventColumns, toStoredEvent, type EventRow } from './rows';
import type { EventMetadata, InlineHandler, NewEvent, StoredEvent } from './types';

export interface StreamState<TState> {
  readonly state: TState;
  /** The stream's version the state was folded at: what the next append expects. */
  readonly version: number;
}

/** The decider's state of a stream: its events of the decider's types, up to the version read first. */
export async function aggregateStream<TCommand, TEvent extends NewEvent, TState>(
  db: Queryable,
  streamId: string,
  decider: StreamDecider<TCommand, TEvent, TState>,
): Promise<StreamState<TState>> {
  const version = await readStreamVersion(db, streamId);
  if (version === 0 || decider.eventTypes.length === 0) return { state: decider.initialState(), version };
  const { rows } = await db.query<EventRow>({
    name: 'read-stream-for-command',
    text: `SELECT ${eventColumns} FROM events
            WHERE stream_id = $1 AND stream_version <= $2 AND type = ANY($3::text[])
            ORDER BY stream_version`,
    values: [streamId, version, decider.eventTypes],
  });
  const folded = (event: StoredEvent): event is StoredEvent & TEvent => (decider.eventTypes as readonly string[]).includes(event.type);
  const state = rows.map(toStoredEvent).filter(folded).reduce<TState>((current, event) => decider.evolve(current, event), decider.initialState());
  return { state, version };
}

export interface HandleCommandOptions {
  /**
   * Applied in the append's transaction, in this order: write-side steps that must commit or fail
   * with the events (a credential row, a limit check), then the read models owners read at once.
   */
  readonly inlineProjections?: readonly InlineHandler[];
  /** Put on every decided event (who acted). */
  readonly metadata?: EventMetadata;
  /**
   * How often to read, decide and append again after a ConcurrencyError, for streams where the last
   * writer wins (a save of the whole branding). Default 0: the conflict is the caller's answer (409).
   */
  readonly retriesOnConflict?: number;
}

export interface CommandResult<TState> {
  /** The events the command appended, as stored; none when the decider decided nothing. */
  readonly newEvents: readonly StoredEvent[];
  readonly newState: TState;
  /** The stream's version after the command. */
  readonly nextExpectedVersion: number;
}

/**
 * Runs `command` against the stream: the decider's refusal (a DecisionError) is thrown as is and
 * nothing is appended; a decision of no events appends nothing.
 */
export async function handleCommand<TCommand, TEvent extends NewEvent, TState>(
  db: Db,
  streamId: string,
  decider: StreamDecider<TCommand, TEvent, TState>,
  command: TCommand,
  options: HandleCommandOptions = {},
): Promise<CommandResult<TState>> {
  const { metadata, retriesOnConflict = 0 } = options;
  for (let attempt = 0; ; attempt++) {
    const { state, version } = await aggregateStream(db, streamId, decider);
    const decided = decider.decide(command, state);
    const newState = decided.reduce<TState>((current, event) => decider.evolve(current, event), state);
    if (decided.length === 0) return { newEvents: [], newState, nextExpectedVersion: version };
    const events: NewEvent[] = decided.map((event) => (metadata === undefined ? event : { ...event, metadata }));
    try {
      const appended = await appendToStream(db, streamId, events, { expectedVersion: version, inlineProjections: options.inlineProjections ?? [] });
      return { newEvents: appended.stored, newState, nextExpectedVersion: appended.nextExpectedVersion };
    } catch (error) {
      if (error instanceof ConcurrencyError && attempt < retriesOnConflict) continue;
      throw error;
    }
  }
}
