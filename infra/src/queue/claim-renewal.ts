// Keeps a worker's claim on a queue item alive while it works: a claim not renewed within the
// queue's stale limit is taken over by another worker, as if this one had died. Shared by the queue
// runner (its `renew` option) and by anything that works one claimed item on its own.

export interface ClaimRenewal {
  /** Stops renewing; resolves once a renewal under way has ended. */
  stop(): Promise<void>;
}

/**
 * Calls `renew` every `everyMs` until stopped, one renewal at a time (a slow database never piles
 * them up). A failed renewal goes to `onError` and the next one tries again.
 */
export function keepClaim(renew: () => Promise<unknown>, options: { readonly everyMs: number; readonly onError?: (error: unknown) => void }): ClaimRenewal {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const schedule = (): void => {
    timer = setTimeout(() => {
      running = renew().then(
        () => undefined,
        (error: unknown) => {
          if (!stopped) options.onError?.(error);
        },
      );
      void running.then(() => {
        if (!stopped) schedule();
      });
    }, options.everyMs);
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
