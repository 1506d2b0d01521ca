// What every ledger job shares: the database (embedded or DATABASE_URL, migrated), where it writes
// (stdout/stderr, or a test's buffers), and a progress bar that only draws on a terminal.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createLogger, createPool, loadOrCreateSealSigner, migrateDatabase, readLatestSeal, type Config, type Db, type SealSigner } from '@consentry/infra';
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

export async function withJobDatabase<T>(config: Config, work: (pool: Db) => Promise<T>): Promise<T> {
  const logger = createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const database = await openDatabase(config, logger);
  const pool = createPool(database.connectionString, { max: 4 });
  try {
    await migrateDatabase(pool);
    return await work(pool);
  } finally {
    await pool.end();
    await database.stop();
  }
}

/**
 * SEAL_KEY_FILE's key, for a job that signs seals (seal, receipt, purge, subject erase). A new key is
 * made only while the ledger has no seal: once seals exist, a missing file means another machine or
 * a lost key, and a new key would sign the next seals with a key that no published one matches.
 */
export async function sealSignerFor(config: Config, pool: Db): Promise<SealSigner> {
  return loadOrCreateSealSigner(config.sealKeyFile, { create: (await readLatestSeal(pool)) === null });
}

/**
 * The key `consentry verify` trusts when not given one: this server's own, never a new one (a key
 * made now would fail every seal and sign the next ones). With no seal and no key file, nothing
 * needs a key: a throwaway one, kept nowhere, stands in.
 */
export async function ownSealPublicKey(config: Config, pool: Db): Promise<KeyObject> {
  if (!existsSync(config.sealKeyFile) && (await readLatestSeal(pool)) === null) return generateKeyPairSync('ed25519').publicKey;
  return (await loadOrCreateSealSigner(config.sealKeyFile, { create: false })).publicKey;
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
