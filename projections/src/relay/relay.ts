// The relay: publishes every committed event of the log, in global order, to the bus. Exactly one
// instance is active (advisory lock); it reads gap-safely from its checkpoint, publishes a batch,
// and advances the checkpoint only after the bus acknowledged the whole batch. A crash between
// publish and checkpoint republishes the batch, which the bus deduplicates by event id (and
// projectors skip by checkpoint), so nothing is lost and nothing counts twice.
import {
  hasEventsAfter,
  readCheckpoint,
  readCommittedEvents,
  readCommittedSealedEvents,
  writeCheckpoint,
  type Bus,
  type Checkpoint,
  type Logger,
  type RecentDigests,
  type SealedEvent,
  type StoredEvent,
} from '@consentry/infra';
import { toBusMessage } from '../runtime/bus-encoding';
import { acquireLeadership, sleep } from '../runtime/leadership';

export interface RelayOptions {
  readonly connectionString: string;
  readonly bus: Bus;
  readonly subjectPrefix: string;
  readonly logger: Logger;
  /** Distinguishes relays of different buses sharing one database (tests). */
  readonly name?: string;
  /** PROJECTOR_PARTITIONS: the partition token each event's subject carries (runtime/partitions.ts). */
  readonly partitions?: number;
  readonly batchSize?: number;
  /** Pause between polls when the log has nothing new. */
  readonly idleMs?: number;
  /**
   * Pause after a batch smaller than a full one: under steady load the relay then reads (and
   * publishes) what arrived meanwhile in one go. Each poll costs the database a read horizon (~0.7
   * ms of its CPU), the read and a checkpoint commit; polled every 20 ms under load they made ~10%
   * of the database's work per consent (bench:e2e, pg_stat_statements).
   */
  readonly paceMs?: number;
  /**
   * The sealer of this process, when it has one: each published batch is read in its sealed form and
   * its digests are left here, so the sealer need not read the same events back (recent-digests.ts).
   */
  readonly recentDigests?: RecentDigests;
  /** Called after each published batch (metrics, tests). */
  readonly onPublished?: (count: number, checkpoint: Checkpoint) => void;
}

export interface Relay {
  /** True while this instance holds the relay lock. */
  isLeader(): boolean;
  stop(): Promise<void>;
}

export function startRelay(options: RelayOptions): Relay {
  const name = options.name ?? 'relay';
  const batchSize = options.batchSize ?? 1000;
  const idleMs = options.idleMs ?? 20;
  const paceMs = options.paceMs ?? 100;
  const log = options.logger.child({ component: name });
  const stopping = new AbortController();
  let leader = false;

  async function run(): Promise<void> {
    while (!stopping.signal.aborted) {
      const leadership = await acquireLeadership({
        connectionString: options.connectionString,
        lockName: `consentry:${name}`,
        signal: stopping.signal,
      });
      if (!leadership) return;
      leader = true;
      log.info('relay is active');
      let lost = false;
      void leadership.lost.then(() => (lost = true));
      try {
        let checkpoint = await readCheckpoint(leadership.client, name);
        let failures = 0;
        // After a read that found nothing, the log is probed until it has something: the read's
        // horizon is what costs the database. Under load each read follows the last directly.
        let quiet = false;
        while (!stopping.signal.aborted && !lost) {
          if (quiet && !(await hasEventsAfter(leadership.client, checkpoint))) {
            await sleep(idleMs, stopping.signal);
            continue;
          }
          const readAfter = checkpoint;
          let events: StoredEvent[];
          let sealed: SealedEvent[] | null = null;
          if (options.recentDigests) ({ stored: events, sealed } = await readCommittedSealedEvents(leadership.client, checkpoint, batchSize));
          else events = await readCommittedEvents(leadership.client, checkpoint, { limit: batchSize });
          quiet = events.length === 0;
          if (quiet) {
            await sleep(idleMs, stopping.signal);
            continue;
          }
          try {
            await options.bus.publish(events.map((event) => toBusMessage(options.subjectPrefix, event, options.partitions)));
            failures = 0;
          } catch (error) {
            // The bus is unreachable: keep the checkpoint and publish the same batch again later.
            failures++;
            log.warn({ err: error, failures }, 'publishing to the bus failed; retrying');
            await sleep(Math.min(5000, 100 * 2 ** Math.min(failures, 6)), stopping.signal);
            continue;
          }
          const last = events[events.length - 1]!;
          checkpoint = { transactionId: last.transactionId, position: last.position };
          await writeCheckpoint(leadership.client, name, checkpoint);
          if (sealed) options.recentDigests?.add(readAfter, sealed);
          options.onPublished?.(events.length, checkpoint);
          if (events.length < batchSize) await sleep(paceMs, stopping.signal);
        }
      } catch (error) {
        if (!stopping.signal.aborted) log.warn({ err: error }, 'relay lost its database connection; restarting');
      } finally {
        leader = false;
        await leadership.release();
      }
      await sleep(250, stopping.signal);
    }
  }

  const running = run().catch((error: unknown) => log.error({ err: error }, 'relay stopped unexpectedly'));

  return {
    isLeader: () => leader,
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
