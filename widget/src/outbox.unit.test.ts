import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addToQueue,
  backoffDelay,
  createOutbox,
  isFinalStatus,
  markFailed,
  MAX_ANALYTICS_TRIES,
  MAX_QUEUE,
  orderForSending,
  type QueueItem,
} from './outbox';
import type { CollectBody } from './payloads';

const HOST = 'https://consent.example.net';
const KEY = 'consentry:queue:emb_12345678';

let n = 0;
const id = (): string => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const consent = (eventId = id()): QueueItem => ({
  path: 'consent',
  body: { embedCode: 'emb_12345678', eventId } as CollectBody,
  consent: true,
  tries: 0,
});
const pageview = (eventId = id()): QueueItem => ({
  path: 'pageview',
  body: { embedCode: 'emb_12345678', eventId } as CollectBody,
  tries: 0,
});
const ids = (q: readonly QueueItem[]): string[] => q.map((i) => i.body.eventId);
const stored = (): QueueItem[] => JSON.parse(localStorage.getItem(KEY) ?? '[]') as QueueItem[];

describe('addToQueue', () => {
  it('appends, and does not add an eventId twice (a retry is the same event)', () => {
    const a = consent();
    const q = addToQueue([], a);
    expect(ids(q)).toEqual([a.body.eventId]);
    expect(ids(addToQueue(q, { ...a, tries: 3 }))).toEqual([a.body.eventId]);
  });

  it('is bounded: above MAX_QUEUE the oldest analytics item goes', () => {
    expect(MAX_QUEUE).toBe(20);
    let q: QueueItem[] = [];
    const first = pageview();
    q = addToQueue(q, first);
    const c = consent();
    q = addToQueue(q, c);
    for (let i = 0; i < 18; i++) q = addToQueue(q, pageview());
    expect(q).toHaveLength(20);
    const newest = pageview();
    q = addToQueue(q, newest);
    expect(q).toHaveLength(20);
    expect(ids(q)).not.toContain(first.body.eventId);
    expect(ids(q)).toContain(c.body.eventId);
    expect(ids(q).at(-1)).toBe(newest.body.eventId);
  });

  it('never evicts a consent: a full queue of consents refuses analytics but takes more consents', () => {
    let q: QueueItem[] = [];
    for (let i = 0; i < 20; i++) q = addToQueue(q, consent());
    const pv = pageview();
    q = addToQueue(q, pv);
    expect(q).toHaveLength(20);
    expect(ids(q)).not.toContain(pv.body.eventId);
    const c = consent();
    q = addToQueue(q, c);
    expect(q).toHaveLength(21);
    expect(q.every((i) => i.consent)).toBe(true);
  });

  it('evicts analytics before consents when the two are mixed', () => {
    let q: QueueItem[] = [];
    for (let i = 0; i < 15; i++) q = addToQueue(q, consent());
    for (let i = 0; i < 10; i++) q = addToQueue(q, pageview());
    expect(q).toHaveLength(20);
    expect(q.filter((i) => i.consent)).toHaveLength(15);
  });
});

describe('markFailed', () => {
  it('counts tries and gives up on analytics only', () => {
    const pv = { ...pageview(), tries: MAX_ANALYTICS_TRIES - 1 };
    const c = { ...consent(), tries: 100 };
    const q = markFailed(markFailed([pv, c], pv.body.eventId), c.body.eventId);
    expect(ids(q)).toEqual([c.body.eventId]);
    expect(q[0]?.tries).toBe(101);
    expect(markFailed([pageview()], 'other')[0]?.tries).toBe(0);
  });
});

describe('orderForSending', () => {
  it('puts consents first, otherwise keeps order', () => {
    const [p1, c1, p2, c2] = [pageview(), consent(), pageview(), consent()];
    expect(ids(orderForSending([p1, c1, p2, c2]))).toEqual(ids([c1, c2, p1, p2]));
  });
});

describe('isFinalStatus', () => {
  it('is final for 2xx and for 4xx other than 408/429', () => {
    for (const s of [200, 201, 202, 204, 400, 403, 404, 409, 413, 422]) expect(isFinalStatus(s), String(s)).toBe(true);
  });
  it('is retryable for 5xx (503: ledger cannot commit), 408, 429, and anything odd', () => {
    for (const s of [500, 502, 503, 504, 408, 429, 0, 302]) expect(isFinalStatus(s), String(s)).toBe(false);
  });
});

describe('backoffDelay', () => {
  it('doubles from 2 s to a 60 s cap, jittered to 50–100 %', () => {
    expect(backoffDelay(1, 1)).toBe(2000);
    expect(backoffDelay(2, 1)).toBe(4000);
    expect(backoffDelay(3, 0)).toBe(4000);
    expect(backoffDelay(10, 1)).toBe(60_000);
  });
});

describe('createOutbox', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const answer = (status: number) => Promise.resolve(new Response('{}', { status }));
  const sentIds = (): string[] =>
    fetchMock.mock.calls.map((c) => (JSON.parse((c[1] as RequestInit).body as string) as { eventId: string }).eventId);

  beforeEach(() => {
    localStorage.clear();
    vi.useFakeTimers();
    fetchMock = vi.fn(() => answer(201));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('POSTs the JSON body as a string (text/plain, no preflight) with keepalive and no credentials', async () => {
    const outbox = createOutbox(HOST, KEY);
    const item = consent();
    outbox.push('consent', item.body, true);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]).toEqual([
      'https://consent.example.net/api/collect/consent',
      { method: 'POST', body: JSON.stringify(item.body), keepalive: true, credentials: 'omit' },
    ]);
  });

  it('keeps the item in localStorage until ingest answered 2xx', async () => {
    let release: (r: Response) => void = () => {};
    fetchMock.mockImplementationOnce(() => new Promise<Response>((r) => (release = r)));
    const outbox = createOutbox(HOST, KEY);
    const item = consent();
    outbox.push('consent', item.body, true);
    expect(stored()).toEqual([{ path: 'consent', body: item.body, tries: 0, consent: true }]);
    release(new Response('{"status":"stored"}', { status: 201 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('retries a 503 with backoff under the same eventId until it is stored', async () => {
    fetchMock.mockImplementationOnce(() => answer(503)).mockImplementationOnce(() => answer(503));
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const outbox = createOutbox(HOST, KEY);
    const item = consent();
    outbox.push('consent', item.body, true);
    await vi.advanceTimersByTimeAsync(0);
    expect(stored()[0]?.tries).toBe(1);
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(4000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(sentIds()).toEqual([item.body.eventId, item.body.eventId, item.body.eventId]);
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('retries after a network error', async () => {
    fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    const outbox = createOutbox(HOST, KEY);
    outbox.push('consent', consent().body, true);
    await vi.advanceTimersByTimeAsync(0);
    expect(stored()).toHaveLength(1);
    await outbox.flush();
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('drops an item that got a 4xx: ingest will never take it', async () => {
    fetchMock.mockImplementation(() => answer(400));
    const outbox = createOutbox(HOST, KEY);
    outbox.push('consent', consent().body, true);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(KEY)).toBeNull();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('keeps a 429 for later', async () => {
    fetchMock.mockImplementation(() => answer(429));
    const outbox = createOutbox(HOST, KEY);
    outbox.push('consent', consent().body, true);
    await vi.advanceTimersByTimeAsync(0);
    expect(stored()).toHaveLength(1);
  });

  it('stops at the first failure instead of hammering a server that is down', async () => {
    fetchMock.mockImplementation(() => answer(503));
    const outbox = createOutbox(HOST, KEY);
    localStorage.setItem(KEY, JSON.stringify([pageview(), consent(), pageview()]));
    await outbox.flush();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('https://consent.example.net/api/collect/consent');
  });

  it('on the next page load, sends what an earlier page left queued, with the same eventIds', async () => {
    fetchMock.mockImplementation(() => Promise.reject(new TypeError('offline')));
    const first = createOutbox(HOST, KEY);
    const c = consent();
    const pv = pageview();
    first.push('consent', c.body, true);
    await vi.advanceTimersByTimeAsync(0);
    first.push('pageview', pv.body);
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(stored())).toEqual([c.body.eventId, pv.body.eventId]);

    fetchMock.mockReset().mockImplementation(() => answer(201));
    const next = createOutbox(HOST, KEY);
    await next.flush();
    expect(sentIds()).toEqual([c.body.eventId, pv.body.eventId]);
    expect(fetchMock.mock.calls[1]?.[0]).toBe('https://consent.example.net/api/collect/pageview');
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('still retries within the page when localStorage refuses writes', async () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    fetchMock.mockImplementationOnce(() => answer(503));
    const outbox = createOutbox(HOST, KEY);
    const item = consent();
    outbox.push('consent', item.body, true);
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sentIds()).toEqual([item.body.eventId, item.body.eventId]);
  });

  it('beacon() hands the JSON string to sendBeacon and reports whether the browser took it', () => {
    const sendBeacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: sendBeacon, configurable: true });
    const outbox = createOutbox(HOST, KEY);
    const body = pageview().body;
    expect(outbox.beacon('pagehide', body)).toBe(true);
    expect(sendBeacon).toHaveBeenCalledWith('https://consent.example.net/api/collect/pagehide', JSON.stringify(body));
    sendBeacon.mockImplementation(() => {
      throw new TypeError('not allowed');
    });
    expect(outbox.beacon('pagehide', body)).toBe(false);
    delete (navigator as { sendBeacon?: unknown }).sendBeacon;
  });
});
