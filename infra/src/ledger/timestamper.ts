// The timestamper (docs/compliance.md, "Time-stamped seals"): every TSA_INTERVAL_SECONDS, for each
// configured authority, the newest seal it has not stamped yet is sent to it, and its token is
// appended to the log as a SealTimestamped event. A token on seal N also dates every seal before it
// (each seal carries the previous one's hash), so stamping the head of the chain each round covers
// all of it at one request per authority and round, whatever the seal rate. What is still to stamp
// is read from the log itself (the newest seal against the authority's newest token), so an
// authority that is down is simply asked again later, with nothing queued anywhere else; and it runs
// beside the sealer, never in its way, nor in ingest's.
import { createHash } from 'node:crypto';
import { sealStreamId, sealTimestampStreamId, type LedgerSealedData, type SealTimestampedData } from '@consentry/events';
import type { Db, Queryable } from '../db/pool';
import { appendToStream } from '../event-store/append';
import { readLatestSeal } from './seals';
import { requestTimestamp } from './timestamps';

/** Every token in the log, oldest first. */
export async function readSealTimestamps(db: Queryable): Promise<SealTimestampedData[]> {
  const { rows } = await db.query<{ data: SealTimestampedData }>({
    name: 'read-seal-timestamps',
    text: 'SELECT data FROM events WHERE stream_id = $1 ORDER BY stream_version',
    values: [sealTimestampStreamId],
  });
  return rows.map((row) => row.data);
}

/**
 * What dates seal `sequence`: the first token on it or on a later seal, and the seals after it up to
 * that one (each chains to the one before, so the token's seal hash vouches for them all). Null when
 * no authority has dated it yet.
 */
export async function readTimestampFor(db: Queryable, sequence: number): Promise<{ readonly token: SealTimestampedData; readonly chain: readonly LedgerSealedData[] } | null> {
  const { rows } = await db.query<{ data: SealTimestampedData }>({
    name: 'read-first-seal-timestamp-from',
    text: `SELECT data FROM events WHERE stream_id = $1 AND (data->>'sequence')::int >= $2 ORDER BY (data->>'sequence')::int, stream_version LIMIT 1`,
    values: [sealTimestampStreamId, sequence],
  });
  const token = rows[0]?.data;
  if (!token) return null;
  const { rows: seals } = await db.query<{ data: LedgerSealedData }>({
    name: 'read-seal-chain-between',
    text: `SELECT data FROM events WHERE stream_id = $1 AND stream_version > $2 AND stream_version <= $3 ORDER BY stream_version`,
    values: [sealStreamId, sequence, token.sequence],
  });
  return { token, chain: seals.map((row) => row.data) };
}

/** The sequence of the newest seal `tsaUrl` has stamped, or 0. */
async function lastStampedBy(db: Queryable, tsaUrl: string): Promise<number> {
  const { rows } = await db.query<{ sequence: number }>({
    name: 'read-last-seal-timestamp-of-tsa',
    // Newest first along the stream's index; the authorities' tokens interleave, so this stops soon.
    text: `SELECT (data->>'sequence')::int AS sequence FROM events WHERE stream_id = $1 AND data->>'tsa' = $2 ORDER BY stream_version DESC LIMIT 1`,
    values: [sealTimestampStreamId, tsaUrl],
  });
  return rows[0]?.sequence ?? 0;
}

/** One token per authority and seal, whichever process asks: the event id is derived from both. */
function timestampEventId(tsaUrl: string, sequence: number): string {
  const hex = createHash('sha256').update(`SealTimestamped\n${tsaUrl}\n${sequence}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Stamps the newest seal with `tsaUrl` unless it already has; returns the token recorded, or null
 * when there was nothing new. Throws TimestampRequestError when the authority failed.
 */
export async function timestampLatestSeal(pool: Db, tsaUrl: string, options: { readonly timeoutMs?: number } = {}): Promise<SealTimestampedData | null> {
  const latest = await readLatestSeal(pool);
  if (!latest || (await lastStampedBy(pool, tsaUrl)) >= latest.data.sequence) return null;
  const { sequence, sealHash } = latest.data;
  const obtained = await requestTimestamp(tsaUrl, sealHash, options);
  const data: SealTimestampedData = { sequence, sealHash, tsa: tsaUrl, ...obtained };
  await appendToStream(pool, sealTimestampStreamId, [{ type: 'SealTimestamped', eventId: timestampEventId(tsaUrl, sequence), data }]);
  return data;
}

export interface RunningTimestamper {
  stop(): Promise<void>;
}

/**
 * Stamps the head of the chain with each authority every `intervalMs`. A failed request is tried
 * again sooner (`retryAfterMs`, 5 s by default, doubling, never later than the interval), and
 * reported each time; the first round comes as soon after start.
 */
export function startTimestamper(
  pool: Db,
  options: {
    readonly tsaUrls: readonly string[];
    readonly intervalMs: number;
    readonly timeoutMs?: number;
    readonly retryAfterMs?: number;
    readonly onError: (error: unknown, tsaUrl: string) => void;
    readonly onStamped?: (token: SealTimestampedData) => void;
  },
): RunningTimestamper {
  let stopped = false;
  const retryAfterMs = options.retryAfterMs ?? 5_000;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  const schedule = (tsaUrl: string, delayMs: number, failures: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const round = (async () => {
        let next = failures;
        try {
          const stamped = await timestampLatestSeal(pool, tsaUrl, options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
          if (stamped) options.onStamped?.(stamped);
          next = 0;
        } catch (error) {
          next = failures + 1;
          if (!stopped) options.onError(error, tsaUrl);
        }
        if (!stopped) schedule(tsaUrl, next === 0 ? options.intervalMs : Math.min(options.intervalMs, retryAfterMs * 2 ** (next - 1)), next);
      })();
      running.add(round);
      void round.finally(() => running.delete(round));
    }, delayMs);
    timers.add(timer);
  };
  // The first round soon after start: a restarted installation catches up without waiting a whole interval.
  for (const tsaUrl of options.tsaUrls) schedule(tsaUrl, Math.min(options.intervalMs, retryAfterMs), 0);
  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(running);
    },
  };
}
