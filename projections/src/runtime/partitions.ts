// Partitioned projections: the heavy, per-website read models (consent records and stats, their
// dimensions and purposes, website activity, analytics) are split by website into P partitions
// (PROJECTOR_PARTITIONS), so K projector processes share the work: each partition has its own bus
// subject, durable consumer, leadership lock and checkpoint, and a process that dies hands its
// partitions to the others when its locks go with its connections.
//
// An event's partition is a hash of its website id. The relay writes it into the subject's last
// token (`….p3`), so partition 3's consumer receives only its websites' events; events without a
// website go to partition 0. A projection with P = 1 keeps its single checkpoint and consumer.
//
// The partition count is part of each checkpoint's name (`projection:NAME/p3of8`): the checkpoints
// say how the read model was built. A projector configured for another count refuses to run
// (checkPartitionLayout) instead of applying again what another layout applied; `consentry replay`
// rebuilds a projection under the configured count.
import { isAfter, startOfLog, type Checkpoint, type DbTransaction } from '@consentry/infra';
import type pg from 'pg';
import { checkpointNameOf, type Projection } from '../projection';

/** The most partitions a projection can have (PROJECTOR_PARTITIONS' upper bound). */
export const maxPartitions = 64;

/** One partition of a projection: index from 0 to count − 1. */
export interface Partition {
  readonly index: number;
  readonly count: number;
}

export const wholeProjection: Partition = { index: 0, count: 1 };

/** 32-bit FNV-1a: small, fast, and the same in every process and version. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** What partitioning reads of an event: its data's websiteId. */
export interface WithData {
  readonly data: unknown;
}

function websiteOf(event: WithData): string | undefined {
  const websiteId = (event.data as { websiteId?: unknown }).websiteId;
  return typeof websiteId === 'string' ? websiteId : undefined;
}

/** The partition (0 … count − 1) a website's events belong to. */
export function partitionOfWebsite(websiteId: string | undefined, count: number): number {
  return count <= 1 || websiteId === undefined ? 0 : fnv1a(websiteId) % count;
}

export function partitionOfEvent(event: WithData, count: number): number {
  return partitionOfWebsite(websiteOf(event), count);
}

/** How many partitions this projection runs in, given PROJECTOR_PARTITIONS. */
export function partitionCountOf(projection: Projection, configured: number): number {
  return projection.partitionedByWebsite ? Math.max(1, configured) : 1;
}

/** Every partition of a projection under `count`. */
export function partitionsOf(projection: Projection, configured: number): Partition[] {
  const count = partitionCountOf(projection, configured);
  return Array.from({ length: count }, (_, index) => ({ index, count }));
}

/** `projection:NAME` for a whole projection, `projection:NAME/p3of8` for one partition. */
export function partitionCheckpointName(projection: Pick<Projection, 'name'>, partition: Partition): string {
  const whole = checkpointNameOf(projection);
  return partition.count <= 1 ? whole : `${whole}/p${partition.index}of${partition.count}`;
}

const partitionSuffix = /^\/p(0|[1-9]\d*)of([1-9]\d*)$/;

/** Reads a checkpoint name back: which projection and partition it is for, or null for others. */
export function parseCheckpointName(name: string): { projection: string; partition: Partition } | null {
  if (!name.startsWith('projection:')) return null;
  const rest = name.slice('projection:'.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return { projection: rest, partition: wholeProjection };
  const match = partitionSuffix.exec(rest.slice(slash));
  if (!match) return null;
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (!(count >= 1 && index < count)) return null;
  return { projection: rest.slice(0, slash), partition: { index, count } };
}

/** The subject token that carries an event's partition (the relay's side). */
export const partitionToken = (index: number) => `p${index}`;

/**
 * Every checkpoint a projection has, locked until the transaction ends (in name order, so two
 * lockers never deadlock), with the lookup a job that changes the log below the readers needs:
 * the checkpoint of the partition an event belongs to. A projection that has no checkpoint yet
 * has applied nothing.
 */
export interface ProjectionCheckpoints {
  /** The partition count the checkpoints were written under (1 when there are none). */
  readonly count: number;
  readonly names: readonly string[];
  checkpointFor(event: WithData): Checkpoint;
  /** Whether every event of `events` is at or before its partition's checkpoint. */
  firstUnapplied<E extends WithData & Checkpoint>(events: readonly E[]): E | undefined;
}

export async function lockProjectionCheckpoints(tx: DbTransaction | pg.ClientBase, projection: Pick<Projection, 'name'>): Promise<ProjectionCheckpoints> {
  const whole = checkpointNameOf(projection);
  const { rows } = await tx.query<{ name: string; transaction_id: number; position: number }>({
    name: 'lock-projection-checkpoints',
    text: `SELECT name, transaction_id, position FROM checkpoints
            WHERE name = $1 OR starts_with(name, $1 || '/p')
            ORDER BY name FOR UPDATE`,
    values: [whole],
  });
  const byIndex = new Map<number, Checkpoint>();
  let count = 1;
  for (const row of rows) {
    const parsed = parseCheckpointName(row.name);
    if (!parsed || parsed.projection !== projection.name) continue;
    // Only one layout exists outside a replay, which rewrites all of them in one transaction.
    count = parsed.partition.count;
    byIndex.set(parsed.partition.index, { transactionId: row.transaction_id, position: row.position });
  }
  const checkpointFor = (event: WithData) => byIndex.get(partitionOfEvent(event, count)) ?? startOfLog;
  return {
    count,
    names: rows.map((row) => row.name),
    checkpointFor,
    firstUnapplied: (events) => events.find((event) => isAfter(event, checkpointFor(event))),
  };
}

export class PartitionLayoutError extends Error {
  constructor(readonly projection: string, readonly found: number, readonly configured: number) {
    super(
      `Projection ${projection} was built in ${found} partition${found === 1 ? '' : 's'}, but PROJECTOR_PARTITIONS asks for ${configured}. ` +
        `Give every process the same PROJECTOR_PARTITIONS, or rebuild the projection under the new count: ` +
        `stop the projector processes, then run \`consentry replay --projection ${projection}\` with PROJECTOR_PARTITIONS=${configured}.`,
    );
    this.name = 'PartitionLayoutError';
  }
}

/**
 * Throws PartitionLayoutError when the projection's checkpoints were written under another
 * partition count than `partition.count` (a projection without checkpoints can take any).
 */
export async function checkPartitionLayout(db: pg.ClientBase, projection: Pick<Projection, 'name'>, partition: Partition): Promise<void> {
  const whole = checkpointNameOf(projection);
  const { rows } = await db.query<{ name: string }>({
    name: 'partition-layout',
    text: `SELECT name FROM checkpoints WHERE name = $1 OR starts_with(name, $1 || '/p')`,
    values: [whole],
  });
  for (const row of rows) {
    const parsed = parseCheckpointName(row.name);
    if (parsed && parsed.projection === projection.name && parsed.partition.count !== partition.count) {
      throw new PartitionLayoutError(projection.name, parsed.partition.count, partition.count);
    }
  }
}
