// What every ledger job shares: the database (DATABASE_URL, or the running embedded one, migrated),
// where it writes (stdout/stderr, or a test's buffers), and a progress bar that only draws on a
// terminal. Standard output is the command's answer alone (`--json` is one document): logs go to stderr.
import { createLogger, createPool, migrateDatabase, type Config, type Db, type Logger } from '@consentry/infra';
import cliProgress from 'cli-progress';
import { openDatabase } from '../system';

export interface JobIo {
  out(text: string): void;
  err(text: string): void;
  /** Draw progress bars (a terminal); off for tests and pipes. */
  readonly interactive: boolean;
}

export const processIo: JobIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  interactive: Boolean(process.stderr.isTTY),
};

/** The log of a command other than `start`: on standard error, which leaves stdout to the answer. */
export function createCommandLogger(config: Config): Logger {
  return createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT, destination: process.stderr });
}

/** Runs a job on the running installation's database; it never starts the embedded one. */
export async function withJobDatabase<T>(config: Config, work: (pool: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase(config, createCommandLogger(config), 'connect');
  const pool = createPool(database.connectionString, { max: 4 });
  try {
    await migrateDatabase(pool);
    return await work(pool);
  } finally {
    await pool.end();
    await database.stop();
  }
}

export interface Progress {
  update(value: number, total: number): void;
  stop(): void;
}

export function progressBar(io: JobIo, label: string, unit: string): Progress {
  if (!io.interactive) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {eta_formatted} left`, hideCursor: true, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(value, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.setTotal(Math.max(total, value));
      bar.update(value);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

export const formatCount = (value: number) => value.toLocaleString('en-US');
