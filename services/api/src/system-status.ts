// What runs where and how far behind it is, read from the one database every process shares: the
// processes and their locks (infra/src/processes), each async projection's checkpoints (one per
// partition), the relay's, open dead letters, and the last seal. `consentry status` prints it and
// createStatusMetrics (status-metrics.ts) serves the same figures on /metrics.
//
// Lag is counted, not guessed, while that is cheap: one query reads the newest events of the log
// after the oldest checkpoint of interest, at most `countLimit` of them, and each checkpoint's lag
// is the number of those events its reader still has to apply (a projection: its event types, in
// its partition; the relay: every event). A checkpoint older than that window gets a lower bound
// (`exact: false`). `positions` (the log head's position minus the checkpoint's) is always there
// and costs nothing; it also counts other types, other partitions and rolled-back appends.
import {
  defaultAliveWithinMs,
  readLatestSeal,
  readProcesses,
  type Checkpoint,
  type Db,
  type ProcessRecord,
} from '@consentry/infra';
import { asyncProjections, countOpenDeadLetters, parseCheckpointName, partitionOfWebsite, type Projection } from '@consentry/projections';

/** The relay's checkpoint and lock name. */
export const relayCheckpointName = 'relay';
/** The sealer's lock name in a process's leaderships. */
export const sealerLeadershipName = 'sealer';

export interface CheckpointPartition {
  /** 0 … count − 1. */
  readonly index: number;
  readonly count: number;
}

export type ReaderCheckpointName =
  | { readonly reader: 'relay' }
  | { readonly reader: 'projection'; readonly projection: string; readonly partition: CheckpointPartition | null };


/**
 * Reads a reader's checkpoint name: `relay`, `projection:NAME` (a whole projection, partition
 * null) or `projection:NAME/p<i>of<P>` (partition i of P, 0 ≤ i < P). Null for anything else.
 */
export function parseReaderCheckpointName(name: string): ReaderCheckpointName | null {
  if (name === relayCheckpointName) return { reader: 'relay' };
  const parsed = parseCheckpointName(name);
  if (!parsed || parsed.projection === '') return null;
  return { reader: 'projection', projection: parsed.projection, partition: name.includes('/') ? parsed.partition : null };
}

export interface LagFigure {
  /** Events still to apply: exact when `exact`; otherwise a lower bound (the checkpoint is older than the counted window). */
  readonly events: number;
  readonly exact: boolean;
  /** The log head's position minus the checkpoint's: cheap, and at least `events`. */
  readonly positions: number;
}

export interface LeaderRef {
  readonly processId: string;
  readonly host: string;
  readonly pid: number;
  /** False: the process claiming the lock has stopped answering (its heartbeat is late). */
  readonly alive: boolean;
}

export interface CheckpointStatus {
  readonly name: string;
  readonly partition: CheckpointPartition | null;
  /** False: no checkpoint row yet; the reader starts from the beginning of the log. */
  readonly exists: boolean;
  readonly transactionId: number;
  readonly position: number;
  /** ISO 8601 (UTC); null without a row. */
  readonly updatedAt: string | null;
  readonly ageSeconds: number | null;
  readonly lag: LagFigure;
  /** The process whose heartbeat says it holds this lock; an alive one is preferred. */
  readonly leader: LeaderRef | null;
}

export interface ProjectionStatus {
  readonly name: string;
  /** One per partition (in index order) when partitioned, else one. */
  readonly checkpoints: readonly CheckpointStatus[];
  /** Checkpoint rows of another partition layout than the one shown (the newest written). */
  readonly otherCheckpoints: readonly string[];
  readonly openDeadLetters: number;
}

export interface SealStatus {
  readonly sequence: number;
  readonly sealedAt: string;
  readonly ageSeconds: number;
  /** The last event the seal covers. */
  readonly covers: Checkpoint;
  /** Events after it, seals not counted (the sealer never seals a seal alone). */
  readonly since: LagFigure;
  readonly leader: LeaderRef | null;
}

export interface SystemStatus {
  /** The database's clock when read (ISO 8601, UTC). */
  readonly generatedAt: string;
  /** The highest position in the log (0 when empty). */
  readonly headPosition: number;
  /** At most this many of the newest events were read to count lag exactly. */
  readonly countLimit: number;
  /** Every process row, alive ones first. */
  readonly processes: readonly ProcessRecord[];
  readonly relay: CheckpointStatus;
  readonly projections: readonly ProjectionStatus[];
  readonly deadLetters: { readonly open: number; readonly byProjection: Readonly<Record<string, number>> };
  readonly lastSeal: SealStatus | null;
}

export interface ReadSystemStatusOptions {
  /** Default: every async projection. */
  readonly projections?: readonly Pick<Projection, 'name' | 'canHandle'>[];
  /** Events read at most to count lag exactly (default 100,000). */
  readonly countLimit?: number;
  /** A process not seen for this long is not responding (default 15 s). */
  readonly aliveWithinMs?: number;
}

interface CheckpointRow {
  name: string;
  transaction_id: number;
  position: number;
  updated_at: string;
  age_seconds: number;
}

interface TailRow {
  transaction_id: number;
  position: number;
  type: string;
  website_id: string | null;
}

const compareKeys = (a: Checkpoint, b: Checkpoint) => a.transactionId - b.transactionId || a.position - b.position;

async function readClockAndHead(db: Db): Promise<{ now: Date; head: number }> {
  const { rows } = await db.query<{ now: Date; head: number }>({
    name: 'status-clock-and-head',
    text: 'SELECT now() AS now, coalesce((SELECT max(position) FROM events), 0)::int8 AS head',
  });
  return rows[0]!;
}

async function readReaderCheckpoints(db: Db): Promise<CheckpointRow[]> {
  const { rows } = await db.query<CheckpointRow>({
    name: 'status-reader-checkpoints',
    text: `SELECT name, transaction_id, position,
                  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at,
                  greatest(0, extract(epoch FROM now() - updated_at))::float8 AS age_seconds
             FROM checkpoints
            WHERE name = $1 OR starts_with(name, 'projection:')`,
    values: [relayCheckpointName],
  });
  return rows;
}

/** The newest events after `after`, newest first, at most `limit`: the window lag is counted in. */
async function readLogTail(db: Db, after: Checkpoint, limit: number): Promise<TailRow[]> {
  const { rows } = await db.query<TailRow>({
    name: 'status-log-tail',
    text: `SELECT transaction_id, position, type,
                  CASE WHEN jsonb_typeof(data -> 'websiteId') = 'string' THEN data ->> 'websiteId' END AS website_id
             FROM events
            WHERE (transaction_id, position) > ($1::text::xid8, $2::int8)
            ORDER BY transaction_id DESC, position DESC
            LIMIT $3`,
    values: [after.transactionId, after.position, limit],
  });
  return rows;
}

/** Reads the whole picture: a handful of queries, each cheap (the lag count is bounded by `countLimit`). */
export async function readSystemStatus(db: Db, options: ReadSystemStatusOptions = {}): Promise<SystemStatus> {
  const projections = options.projections ?? asyncProjections;
  const countLimit = options.countLimit ?? 100_000;
  const [clock, checkpointRows, processes, deadLetterCounts, latestSeal] = await Promise.all([
    readClockAndHead(db),
    readReaderCheckpoints(db),
    readProcesses(db, { aliveWithinMs: options.aliveWithinMs ?? defaultAliveWithinMs }),
    countOpenDeadLetters(db),
    readLatestSeal(db),
  ]);

  const leaderOf = leadersByLock(processes);
  const rowsByName = new Map(checkpointRows.map((row) => [row.name, row]));

  // The checkpoints to show: the relay's, and each projection's current layout.
  const layouts = projections.map((projection) => ({ projection, ...currentLayout(projection.name, checkpointRows) }));
  const covered: Checkpoint[] = [keyOf(rowsByName.get(relayCheckpointName))];
  for (const layout of layouts) for (const slot of layout.slots) covered.push(keyOf(rowsByName.get(slot.name)));
  const sealedUpTo = latestSeal ? { transactionId: Number(latestSeal.data.last.transactionId), position: latestSeal.data.last.position } : null;
  if (sealedUpTo) covered.push(sealedUpTo);
  const oldest = covered.reduce((a, b) => (compareKeys(a, b) <= 0 ? a : b));

  const tail = await readLogTail(db, oldest, countLimit);
  const window = {
    rows: tail.map((row) => ({ transactionId: row.transaction_id, position: row.position, type: row.type, websiteId: row.website_id ?? undefined })),
    // Every event after `oldest` was read, or the window reaches back to here.
    complete: tail.length < countLimit,
    floor: tail.length > 0 ? { transactionId: tail[tail.length - 1]!.transaction_id, position: tail[tail.length - 1]!.position } : null,
  };
  const partitionCache = new Map<number, number[]>();
  const partitionsUnder = (count: number) => {
    let partitions = partitionCache.get(count);
    if (!partitions) {
      partitions = window.rows.map((row) => partitionOfWebsite(row.websiteId, count));
      partitionCache.set(count, partitions);
    }
    return partitions;
  };
  const lagAfter = (from: Checkpoint, counts: (row: (typeof window.rows)[number], index: number) => boolean): LagFigure => {
    let events = 0;
    for (let i = 0; i < window.rows.length; i++) {
      const row = window.rows[i]!;
      if (compareKeys(row, from) <= 0) break; // newest first: the rest are at or before it
      if (counts(row, i)) events++;
    }
    const exact = window.complete || (window.floor !== null && compareKeys(from, window.floor) >= 0);
    return { events, exact, positions: Math.max(0, clock.head - from.position) };
  };
  const checkpointStatus = (name: string, partition: CheckpointPartition | null, lag: (from: Checkpoint) => LagFigure): CheckpointStatus => {
    const row = rowsByName.get(name);
    const key = keyOf(row);
    return {
      name,
      partition,
      exists: row !== undefined,
      transactionId: key.transactionId,
      position: key.position,
      updatedAt: row?.updated_at ?? null,
      ageSeconds: row?.age_seconds ?? null,
      lag: lag(key),
      leader: leaderOf(name),
    };
  };

  const relay = checkpointStatus(relayCheckpointName, null, (from) => lagAfter(from, () => true));
  const projectionStatuses = layouts.map(({ projection, slots, others }): ProjectionStatus => {
    const types = new Set<string>(projection.canHandle);
    return {
      name: projection.name,
      checkpoints: slots.map(({ name, partition }) =>
        checkpointStatus(name, partition, (from) =>
          lagAfter(from, (row, i) => types.has(row.type) && (partition === null || partitionsUnder(partition.count)[i] === partition.index)),
        ),
      ),
      otherCheckpoints: others,
      openDeadLetters: deadLetterCounts.get(projection.name) ?? 0,
    };
  });

  const byProjection = Object.fromEntries([...deadLetterCounts].sort(([a], [b]) => a.localeCompare(b)));
  return {
    generatedAt: clock.now.toISOString(),
    headPosition: clock.head,
    countLimit,
    processes,
    relay,
    projections: projectionStatuses,
    deadLetters: { open: [...deadLetterCounts.values()].reduce((sum, count) => sum + count, 0), byProjection },
    lastSeal:
      latestSeal && sealedUpTo
        ? {
            sequence: latestSeal.data.sequence,
            sealedAt: latestSeal.data.sealedAt,
            ageSeconds: Math.max(0, (clock.now.getTime() - Date.parse(latestSeal.data.sealedAt)) / 1000),
            covers: sealedUpTo,
            since: lagAfter(sealedUpTo, (row) => row.type !== 'LedgerSealed'),
            leader: leaderOf(sealerLeadershipName),
          }
        : null,
  };
}

const keyOf = (row: CheckpointRow | undefined): Checkpoint => (row ? { transactionId: row.transaction_id, position: row.position } : { transactionId: 0, position: 0 });

interface LayoutSlot {
  readonly name: string;
  readonly partition: CheckpointPartition | null;
}

/**
 * The checkpoints a projection runs under now: of the layouts found (whole, or P partitions), the
 * one written most recently, every partition listed (a missing one has not started). Without any
 * row, the whole projection's name, not started.
 */
function currentLayout(projection: string, rows: readonly CheckpointRow[]): { slots: LayoutSlot[]; others: string[] } {
  const byCount = new Map<number, { newest: string; names: string[] }>();
  for (const row of rows) {
    const parsed = parseReaderCheckpointName(row.name);
    if (parsed?.reader !== 'projection' || parsed.projection !== projection) continue;
    const count = parsed.partition?.count ?? 0; // 0: the whole projection
    const layout = byCount.get(count) ?? { newest: row.updated_at, names: [] };
    if (row.updated_at > layout.newest) layout.newest = row.updated_at;
    layout.names.push(row.name);
    byCount.set(count, layout);
  }
  const whole = `projection:${projection}`;
  let current: number | undefined;
  for (const [count, layout] of byCount) if (current === undefined || layout.newest > byCount.get(current)!.newest) current = count;
  const others = [...byCount].filter(([count]) => count !== current).flatMap(([, layout]) => layout.names).sort();
  if (current === undefined || current === 0) return { slots: [{ name: whole, partition: null }], others };
  const count = current;
  return {
    slots: Array.from({ length: count }, (_, index) => ({ name: `${whole}/p${index}of${count}`, partition: { index, count } })),
    others,
  };
}

/** Lock name → the process holding it: an alive claimant first, else one that stopped answering. */
function leadersByLock(processes: readonly ProcessRecord[]): (lock: string) => LeaderRef | null {
  const holders = new Map<string, LeaderRef>();
  for (const record of processes) {
    for (const lock of record.leaderships) {
      const known = holders.get(lock);
      if (!known || (!known.alive && record.alive)) holders.set(lock, { processId: record.id, host: record.host, pid: record.pid, alive: record.alive });
    }
  }
  return (lock) => holders.get(lock) ?? null;
}
