// The api's writes to versioned streams: infra's one command handler (read, decide, append with the
// version read; ConcurrencyError answers 409), with every inline projection of the read models after
// the command's own write-side hooks, so owners read their own writes at once.
import type { StreamDecider } from '@consentry/events';
import { handleCommand, type CommandResult, type Db, type EventMetadata, type InlineHandler, type NewEvent } from '@consentry/infra';
import { inlineProjections } from '@consentry/projections';

export interface ApiCommandOptions {
  /** Steps that must commit or fail with the events (a credential row, a limit check), before the read models. */
  readonly hooks?: readonly InlineHandler[];
  /** Put on every decided event (who acted). */
  readonly metadata?: EventMetadata;
  /** For streams where the last save wins: decide again after another writer came first. */
  readonly retriesOnConflict?: number;
}

export function handleApiCommand<TCommand, TEvent extends NewEvent, TState>(
  db: Db,
  streamId: string,
  decider: StreamDecider<TCommand, TEvent, TState>,
  command: TCommand,
  { hooks = [], ...options }: ApiCommandOptions = {},
): Promise<CommandResult<TState>> {
  return handleCommand(db, streamId, decider, command, { ...options, inlineProjections: [...hooks, ...inlineProjections] });
}
