// The figures of `consentry status` on /metrics: lag per projection and partition, the relay's lag,
// the last seal's age, processes alive by role, and who holds each projection partition. They are
// read from the database when scraped (system-status.ts), once per `cacheMs` however many gauges
// ask, so a scrape costs a few cheap queries. Open dead letters are not here: createLedgerMetrics
// already serves them (consentry_projection_dead_letters).
//
// Every process reads the same database, so every process serves the same values: aggregate these
// series across instances with max(), not sum().
import type { Db } from '@consentry/infra';
import { Gauge, type Registry } from 'prom-client';
import { readSystemStatus, type CheckpointStatus, type ReadSystemStatusOptions, type SystemStatus } from './system-status';

/** The roles `consentry start --role` knows; each has a series even when nothing runs it (0). */
export const processRoles = ['ingest', 'api', 'projectors', 'relay', 'jobs'] as const;

export interface StatusMetricsOptions extends Pick<ReadSystemStatusOptions, 'projections' | 'aliveWithinMs'> {
  /** How long one reading serves scrapes (default 5 s). */
  readonly cacheMs?: number;
  /** Newest events read at most to count lag exactly (default 10,000); beyond, lag_events is a lower bound. */
  readonly countLimit?: number;
}

const partitionLabel = (checkpoint: CheckpointStatus) => (checkpoint.partition ? `p${checkpoint.partition.index}of${checkpoint.partition.count}` : '');

export function createStatusMetrics(registry: Registry, pool: Db, options: StatusMetricsOptions = {}) {
  const cacheMs = options.cacheMs ?? 5_000;
  const readOptions: ReadSystemStatusOptions = {
    countLimit: options.countLimit ?? 10_000,
    ...(options.projections ? { projections: options.projections } : {}),
    ...(options.aliveWithinMs !== undefined ? { aliveWithinMs: options.aliveWithinMs } : {}),
  };
  let cached: { readonly at: number; readonly status: Promise<SystemStatus> } | undefined;
  /** The current reading, shared by every gauge of a scrape; null when the database is away. */
  const currentStatus = (): Promise<SystemStatus | null> => {
    if (!cached || Date.now() - cached.at >= cacheMs) {
      const reading = { at: Date.now(), status: readSystemStatus(pool, readOptions) };
      cached = reading;
      // A failed reading is not kept: the next scrape asks again.
      reading.status.catch(() => {
        if (cached === reading) cached = undefined;
      });
    }
    // A scrape must not fail because the database is briefly away: the gauges are left empty then.
    return cached.status.catch(() => null);
  };

  /** A gauge filled from the current reading at each scrape. */
  const statusGauge = <L extends string>(name: string, help: string, labelNames: readonly L[], fill: (status: SystemStatus, set: (labels: Record<L, string>, value: number) => void) => void) =>
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        // reset() gives a gauge without labels a 0: absent is the truth when there is no figure.
        if (labelNames.length === 0) this.remove({});
        const status = await currentStatus();
        if (status) fill(status, (labels, value) => this.set(labels as Partial<Record<L, string | number>>, value));
      },
    });

  const eachCheckpoint = (status: SystemStatus, visit: (projection: string, checkpoint: CheckpointStatus) => void) => {
    for (const projection of status.projections) for (const checkpoint of projection.checkpoints) visit(projection.name, checkpoint);
  };

  statusGauge(
    'consentry_projection_checkpoint_lag_events',
    `Events of its types in its partition after the projection's checkpoint, not yet applied; counted among the newest ${readOptions.countLimit} events of the log (a lower bound beyond)`,
    ['projection', 'partition'],
    (status, set) => eachCheckpoint(status, (projection, checkpoint) => set({ projection, partition: partitionLabel(checkpoint) }, checkpoint.lag.events)),
  );
  statusGauge(
    'consentry_projection_checkpoint_lag_positions',
    "The log head's position minus the projection checkpoint's (cheap upper bound of the lag: counts every type and partition)",
    ['projection', 'partition'],
    (status, set) => eachCheckpoint(status, (projection, checkpoint) => set({ projection, partition: partitionLabel(checkpoint) }, checkpoint.lag.positions)),
  );
  statusGauge(
    'consentry_projection_partition_leaders',
    'Alive processes holding the lock of a projection (partition): 1 is right, 0 means nobody applies it',
    ['projection', 'partition'],
    (status, set) =>
      eachCheckpoint(status, (projection, checkpoint) => {
        const holders = status.processes.filter((record) => record.alive && record.leaderships.includes(checkpoint.name)).length;
        set({ projection, partition: partitionLabel(checkpoint) }, holders);
      }),
  );
  statusGauge(
    'consentry_relay_lag_events',
    `Events after the relay's checkpoint, not yet published; counted among the newest ${readOptions.countLimit} events of the log (a lower bound beyond)`,
    [],
    (status, set) => set({}, status.relay.lag.events),
  );
  statusGauge('consentry_relay_lag_positions', "The log head's position minus the relay checkpoint's", [], (status, set) => set({}, status.relay.lag.positions));
  statusGauge('consentry_ledger_last_seal_age_seconds', 'Seconds since the last seal was made (absent before the first seal)', [], (status, set) => {
    if (status.lastSeal) set({}, status.lastSeal.ageSeconds);
  });
  statusGauge('consentry_ledger_unsealed_events', 'Events after the range the last seal covers, seals not counted (a lower bound past the counted window)', [], (status, set) => {
    if (status.lastSeal) set({}, status.lastSeal.since.events);
  });
  statusGauge('consentry_processes_alive', 'Consentry processes whose heartbeat is current, by role they run', ['role'], (status, set) => {
    const counts = new Map<string, number>(processRoles.map((role) => [role, 0]));
    for (const record of status.processes) if (record.alive) for (const role of record.roles) counts.set(role, (counts.get(role) ?? 0) + 1);
    for (const [role, count] of counts) set({ role }, count);
  });

  return {
    /** The reading the gauges serve (cached as they are); null when the database could not be read. */
    readStatus: currentStatus,
  };
}
