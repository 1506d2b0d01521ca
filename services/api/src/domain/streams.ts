// Running a command against a versioned stream: read the stream, fold it with the decider, decide,
// and append the decision with the version that was read (a concurrent writer gets ConcurrencyError,
// answered 409), applying the inline projections in the append's transaction.
import type { Decider, DomainEvent } from '@consentry/events';
import { appendToStream, readStream, type Db, type EventMetadata, type InlineHandler, type NewEvent } from '@consentry/infra';
import { inlineProjections } from '@consentry/projections';

export interface StreamState<TState> {
  readonly state: TState;
  /** The stream's version: what the next append expects. */
  readonly version: number;
}

export async function loadStream<TEvent extends DomainEvent, TState>(
  db: Db,
  streamId: string,
  decider: Pick<Decider<unknown, TEvent, TState>, 'evolve' | 'initialState'>,
  isFamilyEvent: (event: DomainEvent) => event is TEvent,
): Promise<StreamState<TState>> {
  const stored = await readStream(db, streamId);
  const events: readonly DomainEvent[] = stored;
  const state = events.filter(isFamilyEvent).reduce(decider.evolve, decider.initialState());
  return { state, version: stored.at(-1)?.streamVersion ?? 0 };
}

export interface AppendDecisionOptions {
  readonly expectedVersion: number;
  readonly metadata?: EventMetadata;
  /**
   * Write-side steps that must commit or fail with the events (a credential row, a limit check),
   * run before the read models are updated.
   */
  readonly hooks?: readonly InlineHandler[];
}

/** Appends decided events (nothing to append is a no-op) with every inline projection. */
export async function appendDecision(db: Db, streamId: string, events: readonly NewEvent[], options: AppendDecisionOptions): Promise<void> {
  if (events.length === 0) return;
  const metadata = options.metadata;
  await appendToStream(
    db,
    streamId,
    events.map((event) => (metadata === undefined ? event : { ...event, metadata })),
    { expectedVersion: options.expectedVersion, inlineProjections: [...(options.hooks ?? []), ...inlineProjections] },
  );
}
