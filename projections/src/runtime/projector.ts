// The projector runtime: keeps one async projection's read model (or one partition of it, see
// partitions.ts) up to date. One instance per projection partition is active (advisory lock). On
// becoming active it subscribes to the bus, catches up from the Postgres log (at once, and again
// each time the bus has positioned its durable), then applies what the bus delivers. Every batch and the
// checkpoint commit in one transaction, and anything at or before the checkpoint is skipped, so
// redelivery, a restart or a replay running beside it never counts an event twice. An event the
// projection cannot apply is set aside as a dead letter (dead-letters.ts) and the projector goes
// on: it never retries one poisoned batch forever.
import {
  ensureCheckpoint,
  isAfter,
  lockCheckpoint,
  readCheckpoint,
  readCommittedEvents,
  writeCheckpoint,
  type Bus,
  type Checkpoint,
  type Logger,
  type StoredEvent,
} from '@consentry/infra';
import type pg from 'pg';
import type { Projection } from '../projection';
import { filterSubjectFor, fromBusMessage } from './bus-encoding';
import { applyOrPark, describeProjectionError, type ApplyOutcome } from './dead-letters';
import { acquireLeadership, sleep } from './leadership';
import { checkPartitionLayout, partitionCheckpointName, partitionOfEvent, PartitionLayoutError, wholeProjection, type Partition } from './partitions';

export interface ProjectorOptions {
  readonly connectionString: string;
  readonly bus: Bus;
  readonly subjectPrefix: string;
  readonly projection: Projection;
  /** The partition this projector keeps (default: the whole projection). */
  readonly partition?: Partition;
  readonly logger: Logger;
  readonly batchSize?: number;
  /**
   * Under steady load, the least time between the starts of two bus batches: what arrives meanwhile
   * waits and is applied together, so each transaction's fixed cost (locking and moving the
   * checkpoint, the round trips, the commit) is shared by more events. An event after a quiet spell
   * is applied at once, and so is the next batch after a full one (`batchSize`): more is waiting, and
   * pacing full batches would cap the projector at batchSize per interval, below what ingest takes.
   * Default 250 ms (bench:e2e at 10 connections: a tenth less CPU per consent than with 100 ms; the
   * dashboards are that much later under load).
   */
  readonly minBatchIntervalMs?: number;
  /** Called after each committed batch with the new checkpoint (metrics, SSE, tests). */
  readonly onAdvanced?: (checkpoint: Checkpoint, applied: readonly StoredEvent[]) => void;
  /**
   * Whether this process should lead this partition (balancer.ts). A leader no longer preferred
   * hands the partition back after leading it a while. Default: always.
   */
  readonly preferred?: (lockName: string) => boolean;
  /** Called with each event set aside as a dead letter (counted in metrics). */
  readonly onParked?: (event: StoredEvent) => void;
}

export interface Projector {
  /** The checkpoint (and leadership lock) name: `projection:NAME` or `projection:NAME/p3of8`. */
  readonly name: string;
  isLeader(): boolean;
  stop(): Promise<void>;
}

/** How long a leader keeps a partition another process is preferred for before handing it over. */
const handBackAfterMs = 10_000;

export function startProjector(options: ProjectorOptions): Projector {
  const { projection, bus } = options;
  const partition = options.partition ?? wholeProjection;
  const name = partitionCheckpointName(projection, partition);
  const split = partition.count > 1;
  const batchSize = options.batchSize ?? 1000;
  const minBatchIntervalMs = options.minBatchIntervalMs ?? 250;
  const lockName = `consentry:${name}`;
  let handedBack = false;
  const log = options.logger.child({ component: 'projector', projection: projection.name, ...(split ? { partition: `${partition.index}/${partition.count}` } : {}) });
  const stopping = new AbortController();
  let leader = false;

  async function runAsLeader(client: pg.Client, lost: Promise<void>): Promise<void> {
    // One batch at a time: bus batches wait while the catch-up runs.
    let queue: Promise<unknown> = Promise.resolve();
    const serially = <T>(work: () => Promise<T>): Promise<T> => {
      const next = queue.then(work);
      queue = next.catch(() => undefined);
      return next;
    };
    const apply = (events: readonly StoredEvent[]) =>
      applyProjectionBatch(client, projection, events, partition, false).then((advanced) => {
        if (!advanced) return;
        for (const { event, error, newly } of advanced.parked) {
          // Once per event: a parked event is past the checkpoint and never comes back here.
          if (newly) {
            log.error(
              { eventId: event.eventId, eventType: event.type, position: event.position, error: describeProjectionError(error) },
              'an event could not be projected; set aside as a dead letter (consentry dead-letters)',
            );
          }
          options.onParked?.(event);
        }
        options.onAdvanced?.(advanced.checkpoint, advanced.applied);
      });

    // Reads the log from the checkpoint to its committed end, applying as it goes.
    const catchUp = () =>
      serially(async () => {
        let checkpoint = await readCheckpoint(client, name);
        while (!stopping.signal.aborted) {
          // A partition reads every event of its types and keeps its own websites' (applyProjectionBatch).
          const events = await readCommittedEvents(client, checkpoint, { limit: batchSize, types: projection.canHandle });
          if (events.length === 0) break;
          await apply(events);
          const last = events[events.length - 1]!;
          checkpoint = { transactionId: last.transactionId, position: last.position };
          if (events.length < batchSize) break;
        }
      });

    // The log is read again each time the durable is (re)positioned, after its start is fixed: an
    // event the durable will not deliver was published before that, so committed before that, so
    // it is in the log. That covers a durable created late (it starts at the stream's end, and the
    // catch-up below may have run before it existed) and one rewound past what it had delivered.
    // The first bus batch may reach the apply before the catch-up; `serially` keeps them in order.
    const consumption = bus.consume({
      durable: split ? `projector-${projection.name}-p${partition.index}of${partition.count}` : `projector-${projection.name}`,
      filterSubject: filterSubjectFor(options.subjectPrefix, projection.canHandle, partition),
      deliverPolicy: 'new',
      maxBatch: batchSize,
      onPositioned: catchUp,
      onBatch: async (messages) => {
        const started = Date.now();
        await serially(() => apply(messages.map(fromBusMessage)));
        // Returning later means the bus hands over the next batch later, with everything since.
        if (messages.length >= batchSize) return;
        const wait = started + minBatchIntervalMs - Date.now();
        if (wait > 0) await sleep(wait, stopping.signal);
      },
    });
    // Another process is preferred for this partition (it started, or came back): after leading it
    // a while (no flapping while the view of the processes settles), hand it over.
    const ledSince = Date.now();
    let handOver = () => undefined as void;
    const handBack = new Promise<void>((resolve) => (handOver = resolve));
    const handBackCheck = setInterval(() => {
      if (options.preferred && !options.preferred(lockName) && Date.now() - ledSince >= handBackAfterMs) {
        handedBack = true;
        handOver();
      }
    }, 1000);
    // Made before the catch-up, so a stop asked for during it is not missed.
    const stopped = new Promise<void>((resolve) => {
      if (stopping.signal.aborted) resolve();
      stopping.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    try {
      // Also at once, so a bus that is away (NATS down) does not hold the read model back at start.
      await catchUp();
      await Promise.race([consumption.done, lost, stopped, handBack]);
    } finally {
      clearInterval(handBackCheck);
      await consumption.stop().catch(() => undefined);
      await consumption.done.catch((error: unknown) => {
        if (!stopping.signal.aborted) log.warn({ err: error }, 'applying a batch failed; catching up again');
      });
    }
  }

  async function run(): Promise<void> {
    while (!stopping.signal.aborted) {
      const leadership = await acquireLeadership({
        connectionString: options.connectionString,
        lockName,
        signal: stopping.signal,
        ...(options.preferred ? { preferred: () => options.preferred!(lockName) } : {}),
      });
      if (!leadership) return;
      leader = true;
      let pause = 250;
      try {
        // Checkpoints written under another partition count: applying from ours would count again.
        await checkPartitionLayout(leadership.client, projection, partition);
        // Created here once; a batch never creates it (a replay may have removed it since).
        await ensureCheckpoint(leadership.client, name);
        await runAsLeader(leadership.client, leadership.lost);
      } catch (error) {
        if (error instanceof PartitionLayoutError) {
          // Not this process's to fix: say so, hand the lock back, and look again in a while.
          log.error({ found: error.found, configured: error.configured }, error.message);
          pause = 30_000;
        } else if (!stopping.signal.aborted) log.warn({ err: error }, 'projector failed; restarting');
      } finally {
        leader = false;
        await leadership.release();
      }
      if (handedBack) {
        handedBack = false;
        log.info('handed the partition to the process preferred for it');
      }
      await sleep(pause, stopping.signal);
    }
  }

  const running = run().catch((error: unknown) => log.error({ err: error }, 'projector stopped unexpectedly'));

  return {
    name,
    isLeader: () => leader,
    async stop() {
      stopping.abort();
      await running;
    },
  };
}

/**
 * Applies the events after the projection's checkpoint and moves the checkpoint, in one
 * transaction; events the projection cannot apply are parked as dead letters in the same
 * transaction. Returns what was applied and parked, or null when everything was at or before the
 * checkpoint. Throws only when the database itself failed (the batch is then retried as it is).
 */
export async function applyProjectionBatch(
  db: pg.ClientBase,
  projection: Projection,
  events: readonly StoredEvent[],
  partition: Partition = wholeProjection,
  /** False for a running projector: its checkpoint was created when it became leader, and if it is gone now it must not start over. */
  createCheckpoint = true,
): Promise<({ checkpoint: Checkpoint } & ApplyOutcome) | null> {
  if (events.length === 0) return null;
  const name = partitionCheckpointName(projection, partition);
  await db.query('BEGIN');
  try {
    const checkpoint = await lockCheckpoint(db, name, { create: createCheckpoint });
    const fresh = events.filter((event) => isAfter(event, checkpoint));
    if (fresh.length === 0) {
      await db.query('COMMIT');
      return null;
    }
    const handled = fresh.filter(
      (event) => projection.canHandle.includes(event.type) && (partition.count === 1 || partitionOfEvent(event, partition.count) === partition.index),
    );
    const { applied, parked } = await applyOrPark(db, projection, handled);
    const last = fresh[fresh.length - 1]!;
    const advanced = { transactionId: last.transactionId, position: last.position };
    await writeCheckpoint(db, name, advanced);
    await db.query('COMMIT');
    return { checkpoint: advanced, applied, parked };
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
