// Work a request starts but does not wait for (the B2B company match after a consent): tracked, so a
// shutdown lets it finish before the appender closes, and tests can wait for it instead of sleeping.

export interface BackgroundWork {
  /** Runs `task` without anyone awaiting it; a task that fails is reported to `onError`, never thrown. */
  run(task: () => Promise<void>, onError: (error: unknown) => void): void;
  /** Resolves once every task started so far (and any they started) has settled. */
  idle(): Promise<void>;
}

export function createBackgroundWork(): BackgroundWork {
  const running = new Set<Promise<void>>();
  return {
    run(task, onError) {
      const done: Promise<void> = Promise.resolve()
        .then(task)
        .catch((error: unknown) => {
          try {
            onError(error);
          } catch {
            // Reporting must not turn into an unhandled rejection.
          }
        })
        .finally(() => running.delete(done));
      running.add(done);
    },
    async idle() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
