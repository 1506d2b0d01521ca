// Decider tests as given / when / then, after Emmett's DeciderSpecification: given a stream's events,
// when a command, then the events decided, or the refusal. One helper for every decider's tests.
import { expect } from 'vitest';
import { foldEvents, type Decider } from '../decider';

export interface DeciderThen<TEvent> {
  /** The command decides exactly these events (none: `then([])`). */
  then(expected: readonly TEvent[]): void;
  /** The command is refused with this error (a class, or its message). */
  thenThrows(error: (new (...args: never[]) => Error) | string | RegExp): void;
}

export interface DeciderSpec<TCommand, TEvent> {
  given(events: readonly TEvent[]): { when(command: TCommand): DeciderThen<TEvent> };
  /** A command on a stream without events. */
  when(command: TCommand): DeciderThen<TEvent>;
}

export function deciderSpec<TCommand, TEvent, TState>(decider: Decider<TCommand, TEvent, TState>): DeciderSpec<TCommand, TEvent> {
  const given = (events: readonly TEvent[]) => ({
    when(command: TCommand): DeciderThen<TEvent> {
      const decide = () => decider.decide(command, foldEvents(decider, events));
      return {
        then: (expected) => expect(decide()).toEqual(expected),
        thenThrows: (error) => expect(decide).toThrow(error),
      };
    },
  });
  return { given, when: (command) => given([]).when(command) };
}
