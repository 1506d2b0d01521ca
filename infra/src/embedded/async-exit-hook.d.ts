// async-exit-hook ships no types: what embedded-postgres.ts uses of it.
declare module 'async-exit-hook' {
  interface ExitHook {
    (hook: (done: () => void) => void): void;
    /** Removes the listener it added for this event, and only that one. */
    unhookEvent(event: string): void;
  }
  const exitHook: ExitHook;
  export default exitHook;
}
