// The outbox: every collect request is first written to a small queue in localStorage and only taken
// out once ingest answered. A consent that was clicked must reach the ledger even when the network or
// the ledger is down, so failures stay queued and are retried — with backoff, on `online`, and on the
// next page load — always under the same eventId, which ingest stores once.

import type { CollectBody, CollectPath } from './payloads';
import { readJson, writeJson } from './storage';

export interface QueueItem {
  path: CollectPath;
  body: CollectBody;
  /** Set on consent events: they are never evicted and never given up on. */
  consent?: true;
  /** Failed attempts so far. */
  tries: number;
}

/** How many items the queue holds before analytics items are evicted, oldest first. */
export const MAX_QUEUE = 20;
/** After this many failed attempts an analytics item is given up; a consent item never is. */
export const MAX_ANALYTICS_TRIES = 8;
export const MAX_BACKOFF_MS = 60_000;

/**
 * `queue` with `item` appended. An item whose eventId is already queued is not added twice. Above
 * `max`, the oldest analytics item goes (possibly the new one); consent items are never evicted, so a
 * queue of only consents can exceed `max` — each is a visitor's click, so that stays small in practice.
 */
export function addToQueue(queue: readonly QueueItem[], item: QueueItem, max = MAX_QUEUE): QueueItem[] {
  if (queue.some((q) => q.body.eventId === item.body.eventId)) return queue.slice();
  const next = queue.concat(item);
  while (next.length > max) {
    const i = next.findIndex((q) => !q.consent);
    if (i < 0) break;
    next.splice(i, 1);
  }
  return next;
}

/**
 * `queue` after an attempt at `eventId` failed: the item's tries go up, and an analytics item that has
 * used up its tries is dropped.
 */
export function markFailed(queue: readonly QueueItem[], eventId: string): QueueItem[] {
  return queue
    .map((q) => (q.body.eventId === eventId ? { ...q, tries: q.tries + 1 } : q))
    .filter((q) => q.consent || q.tries < MAX_ANALYTICS_TRIES);
}

export function removeFromQueue(queue: readonly QueueItem[], eventId: string): QueueItem[] {
  return queue.filter((q) => q.body.eventId !== eventId);
}

/** Consents first (they matter most and are few), otherwise in the order they happened. */
export function orderForSending(queue: readonly QueueItem[]): QueueItem[] {
  return queue.filter((q) => q.consent).concat(queue.filter((q) => !q.consent));
}

/**
 * What an answer means for a queued item. 2xx: stored. 5xx (503: the ledger could not commit), 408
 * and 429: try again later. Other 4xx: ingest will never accept this body, so retrying is pointless.
 */
export function isFinalStatus(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 408 && status !== 429);
}

/** Delay before retry number `failures` (1, 2, …): exponential from 2 s, capped at a minute, jittered
 * so that widgets on many pages do not all return at the same moment after an outage. */
export function backoffDelay(failures: number, random = Math.random()): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** failures) * (0.5 + random / 2);
}

// Storage is the page's to tamper with; an item without a body could not even be sent.
const isQueueItem = (v: unknown): v is QueueItem => !!(v && (v as QueueItem).body);

export interface Outbox {
  /** Queues a request and starts sending it (fetch with keepalive). */
  push(path: CollectPath, body: CollectBody, consent?: boolean): void;
  /** Sends everything queued, in order, stopping at the first failure. */
  flush(): Promise<void>;
  /** For the moment the page is being hidden or unloaded: sendBeacon, which outlives the page but
   * cannot report whether ingest committed — false when the browser refused to queue it. */
  beacon(path: CollectPath, body: CollectBody): boolean;
}

/** The outbox of one embed code, sending to `{host}/api/collect/…` and persisting under `storageKey`. */
export function createOutbox(host: string, storageKey: string): Outbox {
  // The page's copy, used when localStorage is unusable, so retries still work within the page.
  let memory: QueueItem[] = [];
  let memoryOnly = false;
  let flushing = false;
  let again = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const url = (path: CollectPath): string => host + '/api/collect/' + path;

  // Re-read before every change: another tab of the same site may have queued or sent items meanwhile.
  // Once a write failed (storage full or disabled), the stored copy is stale and only the page's counts.
  const read = (): QueueItem[] => {
    const stored = memoryOnly ? memory : readJson(storageKey);
    return Array.isArray(stored) ? stored.filter(isQueueItem) : memory;
  };
  const update = (change: (queue: QueueItem[]) => QueueItem[]): void => {
    memory = change(read());
    if (!writeJson(storageKey, memory.length ? memory : undefined)) memoryOnly = true;
  };

  // The body is a string, so the request is text/plain: a CORS "simple" request without preflight.
  // A network error (offline, CORS refused, ad blocker) counts as a failure like a 5xx.
  const send = async (item: QueueItem): Promise<boolean> => {
    try {
      const res = await fetch(url(item.path), {
        method: 'POST',
        body: JSON.stringify(item.body),
        keepalive: true,
        credentials: 'omit',
      });
      return isFinalStatus(res.status);
    } catch {
      return false;
    }
  };

  const flush = async (): Promise<void> => {
    if (flushing) {
      again = true;
      return;
    }
    flushing = true;
    clearTimeout(timer);
    try {
      do {
        again = false;
        for (const item of orderForSending(read())) {
          const id = item.body.eventId;
          if (!(await send(item))) {
            update((q) => markFailed(q, id));
            failures++;
            timer = setTimeout(() => void flush(), backoffDelay(failures));
            return;
          }
          update((q) => removeFromQueue(q, id));
          failures = 0;
        }
      } while (again);
    } finally {
      flushing = false;
    }
  };

  return {
    push(path, body, consent) {
      const item: QueueItem = { path, body, tries: 0 };
      if (consent) item.consent = true;
      update((q) => addToQueue(q, item));
      void flush();
    },
    flush,
    beacon(path, body) {
      try {
        return navigator.sendBeacon(url(path), JSON.stringify(body));
      } catch {
        return false;
      }
    },
  };
}
