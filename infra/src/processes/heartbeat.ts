// Which Consentry processes run, where, with which roles and which locks (migration 022): every
// process started by `consentry start` keeps one row in `processes` and refreshes it every few
// seconds, so `consentry status` and the metrics can tell, from the one database every machine
// shares, what runs where and who holds each single-instance lock. All times are the database's
// clock, so machines whose clocks disagree still agree on who is alive.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Db, Queryable } from '../db/pool';

/** How often a process refreshes its row unless told otherwise. */
export const defaultHeartbeatIntervalMs = 5_000;
/** A process not seen for this long (three default beats) is shown as not responding. */
export const defaultAliveWithinMs = 3 * defaultHeartbeatIntervalMs;
/** Rows of processes not seen for this long are deleted (the process died without saying so). */
export const forgetProcessesAfterMs = 10 * 60_000;
/** Stale rows deleted per beat at most, so one beat stays one cheap statement however many died. */
const forgetBatchSize = 100;

export interface ProcessHeartbeatOptions {
  /** The roles this process runs (`consentry start --role`): ingest, api, projectors, relay, jobs. */
  readonly roles: readonly string[];
  /**
   * The single-instance locks held right now, read at every beat: 'relay', 'sealer', checkpoint
   * names such as 'projection:consent-stats/p1of4'.
   */
  readonly leaderships: () => readonly string[];
  /** Default 5,000 ms. */
  readonly intervalMs?: number;
  /** Default: the version in the repository's package.json (consentryVersion()). */
  readonly version?: string;
  /** Called when a beat fails; the next beat tries again. Never thrown. */
  readonly onError?: (error: unknown) => void;
}

export interface ProcessHeartbeat {
  /** This process's row id. */
  readonly id: string;
  /** Stops beating and deletes this process's row (a failure goes to onError, never thrown). */
  stop(): Promise<void>;
}

let cachedVersion: string | undefined;

/** The product's version (the root package.json's `version`), or '0.0.0-dev' when it has none. */
export function consentryVersion(): string {
  if (cachedVersion === undefined) {
    try {
      const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
      cachedVersion = typeof manifest.version === 'string' && manifest.version !== '' ? manifest.version : '0.0.0-dev';
    } catch {
      cachedVersion = '0.0.0-dev';
    }
  }
  return cachedVersion;
}

/**
 * Inserts this process's row now and refreshes `seen_at` and `leaderships` every `intervalMs`
 * (an upsert, so a row deleted while this process was frozen comes back); each beat also deletes a
 * bounded number of rows of processes gone for ten minutes. A failed beat is reported to onError
 * and the next one tries again: losing the database never stops the process.
 */
export function startProcessHeartbeat(pool: Db, options: ProcessHeartbeatOptions): ProcessHeartbeat {
  const id = randomUUID();
  const intervalMs = options.intervalMs ?? defaultHeartbeatIntervalMs;
  const host = hostname();
  const roles = [...options.roles];
  const version = options.version ?? consentryVersion();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const beat = async () => {
    try {
      await pool.query({
        name: 'process-heartbeat',
        text: `INSERT INTO processes (id, host, pid, roles, leaderships, version)
               VALUES ($1, $2, $3, $4::text[], $5::text[], $6)
               ON CONFLICT (id) DO UPDATE SET seen_at = now(), leaderships = EXCLUDED.leaderships`,
        values: [id, host, process.pid, roles, [...options.leaderships()], version],
      });
      await pool.query({
        name: 'process-forget-stale',
        text: `DELETE FROM processes WHERE id IN (
                 SELECT id FROM processes WHERE seen_at < now() - make_interval(secs => $1) ORDER BY seen_at LIMIT $2)`,
        values: [forgetProcessesAfterMs / 1000, forgetBatchSize],
      });
    } catch (error) {
      if (!stopped) options.onError?.(error);
    }
    if (!stopped) {
      timer = setTimeout(() => (running = beat()), intervalMs);
      // A heartbeat alone never keeps a process alive.
      timer.unref();
    }
  };
  running = beat();

  return {
    id,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      // A beat in flight could otherwise insert the row again after the delete.
      await running;
      await pool.query({ name: 'process-delete', text: 'DELETE FROM processes WHERE id = $1', values: [id] }).catch((error: unknown) => options.onError?.(error));
    },
  };
}

export interface ProcessRecord {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly roles: readonly string[];
  readonly version: string;
  /** ISO 8601, UTC. */
  readonly startedAt: string;
  readonly seenAt: string;
  readonly uptimeSeconds: number;
  readonly seenSecondsAgo: number;
  /** Seen within `aliveWithinMs`; false: the process is not responding (or died). */
  readonly alive: boolean;
  readonly leaderships: readonly string[];
}

export interface ReadProcessesOptions {
  /** The time to judge against; default the database's clock. */
  readonly now?: Date;
  /** Default 15 s: three beats of the default interval. */
  readonly aliveWithinMs?: number;
}

interface ProcessRow {
  id: string;
  host: string;
  pid: number;
  roles: string[];
  version: string;
  started_at: string;
  seen_at: string;
  uptime_seconds: number;
  seen_seconds_ago: number;
  alive: boolean;
  leaderships: string[];
}

const isoUtc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Every process row, alive ones first, then by host and pid. */
export async function readProcesses(db: Queryable, options: ReadProcessesOptions = {}): Promise<ProcessRecord[]> {
  const { rows } = await db.query<ProcessRow>({
    name: 'read-processes',
    text: `WITH clock AS (SELECT coalesce($1::timestamptz, now()) AS now)
           SELECT id, host, pid, roles, version, leaderships,
                  ${isoUtc('started_at')} AS started_at, ${isoUtc('seen_at')} AS seen_at,
                  greatest(0, extract(epoch FROM clock.now - started_at))::float8 AS uptime_seconds,
                  greatest(0, extract(epoch FROM clock.now - seen_at))::float8 AS seen_seconds_ago,
                  seen_at >= clock.now - make_interval(secs => $2) AS alive
             FROM processes, clock
            ORDER BY alive DESC, host, pid, started_at`,
    values: [options.now?.toISOString() ?? null, (options.aliveWithinMs ?? defaultAliveWithinMs) / 1000],
  });
  return rows.map((row) => ({
    id: row.id,
    host: row.host,
    pid: row.pid,
    roles: row.roles,
    version: row.version,
    startedAt: row.started_at,
    seenAt: row.seen_at,
    uptimeSeconds: row.uptime_seconds,
    seenSecondsAgo: row.seen_seconds_ago,
    alive: row.alive,
    leaderships: row.leaderships,
  }));
}
