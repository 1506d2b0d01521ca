// What a decider is (after Emmett): three pure functions over one stream's events. `decide` turns a
// command and the stream's state into new events, or refuses with a DecisionError; `evolve` folds one
// event into the state; `initialState` is the state of a stream that has no events yet. Time and ids
// arrive in the command, so deciders never read the clock, a random source or the database.

/** What every command carries besides its data. */
export interface CommandMetadata {
  /** ISO time of the request; a decider never reads the clock. */
  readonly now: string;
}

export interface Decider<TCommand, TEvent, TState> {
  decide(command: TCommand, state: TState): TEvent[];
  evolve(state: TState, event: TEvent): TState;
  initialState(): TState;
}

/**
 * A decider of one stream family as the command handler runs it (infra's handleCommand): with the
 * event types its evolve folds, the only ones read from the stream. None: the decision needs no
 * state (the last save wins), and only the stream's version is read.
 */
export interface StreamDecider<TCommand, TEvent extends { readonly type: string }, TState> extends Decider<TCommand, TEvent, TState> {
  readonly eventTypes: readonly TEvent['type'][];
}

/** The state after `events`, folded from the initial state. */
export function foldEvents<TEvent, TState>(decider: Pick<Decider<unknown, TEvent, TState>, 'evolve' | 'initialState'>, events: readonly TEvent[]): TState {
  return events.reduce(decider.evolve, decider.initialState());
}

/**
 * How a refusal reads to a caller: the resource is not there (or not theirs), the command clashes
 * with the current state, or a plan limit stops it. Services map each kind to one status.
 */
export type DecisionErrorKind = 'not_found' | 'conflict' | 'limit_reached';

/** A command refused by a decider: a stable `code` for programs and a `message` for people. */
export class DecisionError extends Error {
  constructor(
    readonly code: string,
    readonly kind: DecisionErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DecisionError';
  }
}

/** Ends every switch over a union: adding a member without handling it is a compile error. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
