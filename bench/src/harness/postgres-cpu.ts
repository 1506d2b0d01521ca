// The CPU a PostgreSQL on this machine spends for one database, read from /proc (proc-stat.ts), so a
// benchmark can charge the database's work to the system that caused it.
//
// How the processes are found: the meter's own connection's backend is a child of the postmaster,
// so its parent in /proc is the postmaster; its other children are the server's processes, which
// pg_stat_activity lists (all but the logger) with each backend's database and application. A
// child counts as
//   - the database's: a backend (or parallel or autovacuum worker) of the measured database, except
//     the benchmark's own connections (by application name);
//   - shared: a process that serves no single database (checkpointer, background writer, WAL
//     writer, launchers: no database in pg_stat_activity), plus the postmaster's own time.
//     Whatever else writes to the cluster meanwhile makes these busier too;
//   - other: backends of other databases (other tests on a shared machine), left out.
// The cluster-wide figure (the postmaster and its children, ended backends included) is kept beside.
// Samples are taken every `intervalMs`: a backend of the database that ends between two samples
// counts up to its last one (connection pools keep theirs for the length of a benchmark).
import pg from 'pg';
import { ownCpuTicks, processTreeOf, readProcessTable, readProcStat, ticksToMicros, treeCpuTicks, type ProcessTable } from './proc-stat';

/** One row of pg_stat_activity: a server process, its database (null: none) and application name. */
export interface ServerActivity {
  readonly pid: number;
  readonly database: string | null;
  readonly applicationName: string;
}

export interface PostgresCpu {
  /** The measured database's backends, in µs. */
  readonly databaseMicros: number;
  /** The postmaster and its processes that serve no single database, in µs. */
  readonly sharedMicros: number;
  /** Every process of the cluster, whoever it worked for, in µs. */
  readonly clusterMicros: number;
}

type Share = 'database' | 'shared' | 'other';

export interface PostgresCpuAccountOptions {
  readonly postmasterPid: number;
  readonly database: string;
  /** Connections of the benchmark itself, not of the system it measures. */
  readonly excludeApplicationNames?: readonly string[];
}

/**
 * Accounts for CPU across samples of the process table and pg_stat_activity: the first sample is
 * the starting point; `totals` is what was used between it and the latest.
 */
export function createPostgresCpuAccount(options: PostgresCpuAccountOptions) {
  const excluded = new Set(options.excludeApplicationNames ?? []);
  const processes = new Map<number, { start: number; latest: number; share: Share }>();
  let started = false;
  let postmasterStart = 0;
  let postmasterLatest = 0;
  let clusterStart = 0;
  let clusterLatest = 0;

  const shareOf = (activity: ServerActivity | undefined): Share => {
    if (!activity || activity.database === null) return 'shared';
    return activity.database === options.database && !excluded.has(activity.applicationName) ? 'database' : 'other';
  };

  return {
    add(table: ProcessTable, activities: readonly ServerActivity[]): void {
      const postmaster = table.get(options.postmasterPid);
      if (!postmaster) throw new Error(`the postmaster (pid ${options.postmasterPid}) is gone`);
      const activityByPid = new Map(activities.map((activity) => [activity.pid, activity]));
      for (const child of processTreeOf(options.postmasterPid, table)) {
        if (child.pid === options.postmasterPid) continue;
        const ticks = ownCpuTicks(child);
        const share = shareOf(activityByPid.get(child.pid));
        const known = processes.get(child.pid);
        // Born after the first sample: its whole life is in the measurement.
        if (!known) processes.set(child.pid, { start: started ? 0 : ticks, latest: ticks, share });
        else {
          known.latest = ticks;
          // A backend has no database until it has authenticated; once it has one it keeps it.
          if (known.share === 'shared') known.share = share;
        }
      }
      postmasterLatest = ownCpuTicks(postmaster);
      clusterLatest = treeCpuTicks(options.postmasterPid, table);
      if (!started) {
        started = true;
        postmasterStart = postmasterLatest;
        clusterStart = clusterLatest;
      }
    },

    /** Ticks used between the first sample and the latest. */
    totals(): { databaseTicks: number; sharedTicks: number; clusterTicks: number } {
      let databaseTicks = 0;
      let sharedTicks = postmasterLatest - postmasterStart;
      for (const { start, latest, share } of processes.values()) {
        if (share === 'database') databaseTicks += latest - start;
        else if (share === 'shared') sharedTicks += latest - start;
      }
      return { databaseTicks, sharedTicks, clusterTicks: clusterLatest - clusterStart };
    },
  };
}

export interface PostgresCpuMeter {
  /** CPU used since the meter started, up to now. */
  read(): Promise<PostgresCpu>;
  close(): Promise<void>;
}

export interface PostgresCpuMeterOptions {
  /** Any database of the server, e.g. postgres://postgres@127.0.0.1:5432/postgres. */
  readonly serverUrl: string;
  /** The database whose backends are measured. */
  readonly database: string;
  readonly excludeApplicationNames?: readonly string[];
  readonly intervalMs?: number;
}

/** Starts measuring now. The PostgreSQL at `serverUrl` must run on this machine, visible in /proc. */
export async function startPostgresCpuMeter(options: PostgresCpuMeterOptions): Promise<PostgresCpuMeter> {
  const client = new pg.Client({ connectionString: options.serverUrl, application_name: 'consentry bench cpu meter' });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const backend = readProcStat(rows[0]!.pid);
    if (!backend) throw new Error(`PostgreSQL's backend ${rows[0]!.pid} is not in /proc: its CPU can only be read when it runs on this machine`);
    const account = createPostgresCpuAccount({
      postmasterPid: backend.ppid,
      database: options.database,
      excludeApplicationNames: options.excludeApplicationNames ?? [],
    });
    const sample = async () => {
      const { rows: activities } = await client.query<ServerActivity>(
        `SELECT pid, datname AS database, coalesce(application_name, '') AS "applicationName" FROM pg_stat_activity`,
      );
      // pg_stat_activity lists every server process but the logger: reading only those is enough.
      account.add(readProcessTable([backend.ppid, ...activities.map((activity) => activity.pid)]), activities);
    };
    // One sample at a time: a tick that comes while one runs is skipped.
    let running: Promise<void> | undefined;
    const sampleOnce = () => (running ??= sample().finally(() => (running = undefined)));
    await sampleOnce();
    let failure: unknown;
    const timer = setInterval(() => {
      sampleOnce().catch((error: unknown) => {
        failure ??= error;
      });
    }, options.intervalMs ?? 250);
    timer.unref();
    return {
      async read() {
        // A sample already under way may have read /proc before now: wait for it, then take one.
        await running?.catch(() => undefined);
        await sampleOnce();
        if (failure) throw failure;
        const { databaseTicks, sharedTicks, clusterTicks } = account.totals();
        return { databaseMicros: ticksToMicros(databaseTicks), sharedMicros: ticksToMicros(sharedTicks), clusterMicros: ticksToMicros(clusterTicks) };
      },
      async close() {
        clearInterval(timer);
        await running?.catch(() => undefined);
        await client.end();
      },
    };
  } catch (error) {
    await client.end();
    throw error;
  }
}
