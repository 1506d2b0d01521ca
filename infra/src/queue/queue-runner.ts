// The one loop of every durable queue in Postgres (enrichment, webhooks, scans, CRM connectors): the
// queue's own SQL claims (SKIP LOCKED, stale takeover, fair order); the runner keeps `concurrency`
// items in hand, polls, wakes when a slot frees or when told, renews claims, drains on stop.

import { keepClaim } from './claim-renewal';

export interface ClaimRequest {
  /** Free slots: claim at most this many (0 only with `claimWhenFull`). */
  readonly free: number;
  /** True every `sweepEveryMs`: take over stale claims (and do the queue's other upkeep) this round. */
  readonly sweep: boolean;
  /** Aborted when the runner stops. */
  readonly signal: AbortSignal;
}

export interface Claimed<T> {
  readonly items: readonly T[];
  /** More is due now: claim again as soon as a slot is free (default: something was claimed). */
  readonly more?: boolean;
  /** Wait until this time before claiming again (epoch ms; a rate limit's next token), at most pollMs, even when a slot frees. */
  readonly resumeAt?: number;
}

export interface WorkContext {
  /** Aborted when the runner stops: give the item back (or record it) and return. */
  readonly signal: AbortSignal;
}

export interface QueueRunnerOptions<T> {
  /** Names the queue, e.g. in the stop's abort reason. */
  readonly name: string;
  /** Claims up to `free` items, in the queue's own SQL; a plain array means `{ items }`. */
  readonly claim: (request: ClaimRequest) => Promise<readonly T[] | Claimed<T>>;
  /**
   * Works one claimed item to its end, recording its outcome in the queue. Items claimed as the
   * stop came are handed over too, with `signal` already aborted: nothing claimed is left stranded.
   */
  readonly work: (item: T, context: WorkContext) => Promise<void>;
  /** Items in hand at once (default 1). */
  readonly concurrency?: number;
  /** How long an idle runner waits before claiming again, unless woken. */
  readonly pollMs: number;
  /** How often a claim is a sweep (default: every claim; a queue whose claim always takes over stale ones). */
  readonly sweepEveryMs?: number;
  /** Claim even with no slot free (a queue whose claim also ends or sweeps work itself); default false. */
  readonly claimWhenFull?: boolean;
  /** Renews each item's claim every `everyMs` while it is worked, so a slow item never looks abandoned. */
  readonly renew?: { readonly everyMs: number; readonly claim: (item: T) => Promise<unknown> };
  /** Stops the runner, as stop() does. */
  readonly signal?: AbortSignal;
  /** Told about a failed claim, work or renewal; the runner goes on. */
  readonly onError?: (error: unknown) => void;
  /** Epoch ms, for `sweepEveryMs` and `resumeAt` (default Date.now). */
  readonly now?: () => number;
}

export interface QueueRunner {
  /** Claims now rather than at the next poll (new work was announced). */
  wake(): void;
  /** Stops claiming, aborts the work's signal and resolves once every item in hand is done. */
  stop(): Promise<void>;
}

export function startQueueRunner<T>(options: QueueRunnerOptions<T>): QueueRunner {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const now = options.now ?? Date.now;
  const stopping = new AbortController();
  const inHand = new Set<Promise<void>>();
  let sweptAt = Number.NEGATIVE_INFINITY;
  let resumeAt = 0;
  // Set when a slot frees or wake() is called while a round runs, so the loop looks again at once.
  let woken = false;
  let endSleep: (() => void) | undefined;

  const report = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      // A failing error handler must not end the loop either.
    }
  };

  const alarm = (): void => {
    woken = true;
    endSleep?.();
  };

  const hand = (item: T): void => {
    const renewal = options.renew
      ? keepClaim(() => options.renew!.claim(item), { everyMs: options.renew.everyMs, onError: report })
      : undefined;
    const task = Promise.resolve()
      .then(() => options.work(item, { signal: stopping.signal }))
      .catch(report)
      .finally(async () => {
        await renewal?.stop();
        inHand.delete(task);
        alarm();
      });
    inHand.add(task);
  };

  /** One claim; true when there is more to claim at once. */
  const round = async (): Promise<boolean> => {
    woken = false;
    const free = concurrency - inHand.size;
    if (free <= 0 && !options.claimWhenFull) return false;
    const at = now();
    const sweep = options.sweepEveryMs === undefined || at - sweptAt >= options.sweepEveryMs;
    if (sweep) sweptAt = at;
    const claimed = await options.claim({ free: Math.max(0, free), sweep, signal: stopping.signal });
    const result: Claimed<T> = Array.isArray(claimed) ? { items: claimed } : (claimed as Claimed<T>);
    for (const item of result.items) hand(item);
    resumeAt = result.resumeAt ?? 0;
    return result.more ?? result.items.length > 0;
  };

  const sleep = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const end = (): void => {
        clearTimeout(timer);
        endSleep = undefined;
        resolve();
      };
      const timer = setTimeout(end, ms);
      endSleep = end;
    });

  const stop = (): void => {
    if (!stopping.signal.aborted) stopping.abort(new Error(`The ${options.name} runner is stopping`));
    endSleep?.();
  };
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop, { once: true });

  const loop = (async () => {
    while (!stopping.signal.aborted) {
      let more = false;
      try {
        more = await round();
      } catch (error) {
        report(error);
      }
      if (stopping.signal.aborted) break;
      const untilResume = resumeAt - now();
      if ((more || woken) && untilResume <= 0 && inHand.size < concurrency) continue;
      await sleep(untilResume > 0 ? Math.min(options.pollMs, untilResume) : options.pollMs);
    }
    await Promise.allSettled([...inHand]);
    options.signal?.removeEventListener('abort', stop);
  })();

  return {
    wake: () => {
      if (!stopping.signal.aborted) alarm();
    },
    async stop() {
      stop();
      await loop;
    },
  };
}
