// Seals (DESIGN.md, "The event log" item 7): the sealer closes the next stretch of the committed log
// — everything after the previous seal up to the read horizon, at most `maxEvents` — into a Merkle
// root over the events' digests, chains it to the previous seal's hash, signs it, and appends it as
// a LedgerSealed event (version = sequence, so two sealers racing cannot both extend the chain).
// Sealing reads gap-safely, so a sealed range can never gain a late-committing event.
import { sealStreamId, type LedgerSealedData } from '@consentry/events';
import type { Db, Queryable } from '../db/pool';
import { appendInTransaction } from '../event-store/append';
import { ConcurrencyError } from '../event-store/errors';
import { canonicalJson, sha256Hex } from './canonical';
import { merkleRoot } from './merkle';
import { sealedDigestOf, type RecentDigests, type SealedDigest } from './recent-digests';
import { packPositions, readSealedEvents, type LogKey } from './sealed-events';
import type { SealSigner } from './signing-key';

export type SealHeader = Omit<LedgerSealedData, 'sealHash' | 'signature'>;

/** The seal's header as canonical JSON: what its hash is of (and what a time-stamp token stamps). */
export const sealHeaderJson = (seal: SealHeader | LedgerSealedData): string => {
  const { sequence, after, last, eventCount, merkleRoot: root, previousSealHash, sealedAt, keyId } = seal;
  return canonicalJson({ sequence, after, last, eventCount, merkleRoot: root, previousSealHash, sealedAt, keyId });
};

/** What a seal's signature signs and the next seal chains to: SHA-256 of the header's canonical JSON. */
export const sealHashOf = (seal: SealHeader | LedgerSealedData): string => sha256Hex(sealHeaderJson(seal));

export interface StoredSeal {
  readonly data: LedgerSealedData;
  /** The seal event's own place in the log. */
  readonly position: number;
}

export async function readLatestSeal(db: Queryable): Promise<StoredSeal | null> {
  const { rows } = await db.query<{ data: LedgerSealedData; position: number }>({
    name: 'read-latest-seal',
    text: `SELECT data, position FROM events WHERE stream_id = $1 AND stream_version IS NOT NULL ORDER BY stream_version DESC LIMIT 1`,
    values: [sealStreamId],
  });
  return rows[0] ?? null;
}

export async function readHorizonText(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ horizon: string }>({ name: 'read-horizon-text', text: 'SELECT events_read_horizon()::text AS horizon' });
  return rows[0]!.horizon;
}

export interface SealOptions {
  /** Events per seal at most (default 10,000): bounds a receipt's proof and the seal's leaves row. */
  readonly maxEvents?: number;
  readonly now?: () => Date;
  /**
   * The ledger's key is lost and this signer replaces it (`consentry seal --new-key`). Otherwise a
   * signer whose key is not the one the latest seal was signed with seals nothing (SealKeyMismatchError).
   */
  readonly replaceKey?: boolean;
}

/** This process's seal key is not the ledger's: its seals would match no published key. */
export class SealKeyMismatchError extends Error {
  constructor(
    readonly ownKeyId: string,
    readonly ledgerKeyId: string,
  ) {
    super(
      `this seal key (${ownKeyId}) is not the one the ledger's seals are signed with (${ledgerKeyId}): copy that key to SEAL_KEY_FILE ` +
        `from the machine that holds it (docs/deploy.md); if it is lost, \`consentry seal --new-key\` signs on with a new one`,
    );
    this.name = 'SealKeyMismatchError';
  }
}

/** Throws SealKeyMismatchError when `signer` may not extend a chain whose latest seal is `latest`. */
export function assertSealKeyMatches(signer: SealSigner, latest: LedgerSealedData | null, options: Pick<SealOptions, 'replaceKey'> = {}): void {
  if (latest && latest.keyId !== signer.keyId && !options.replaceKey) throw new SealKeyMismatchError(signer.keyId, latest.keyId);
}

/**
 * Seals the next stretch of the log. Returns the new seal, or null when there is nothing to seal
 * (nothing new, or only seals — sealing a seal alone would chain seals forever on an idle system)
 * or when another sealer extended the chain first.
 */
export async function sealNext(pool: Db, signer: SealSigner, options: SealOptions = {}): Promise<LedgerSealedData | null> {
  const latest = await readLatestSeal(pool);
  const horizon = await readHorizonText(pool);
  const events = await readSealedEvents(pool, latest?.data.last ?? null, { horizon }, options.maxEvents ?? 10_000);
  return sealEvents(pool, signer, latest?.data ?? null, events.map(sealedDigestOf), options);
}

/** Seals `events` (the stretch right after `latest`) as the next link of the chain. */
async function sealEvents(
  pool: Db,
  signer: SealSigner,
  latest: LedgerSealedData | null,
  events: readonly SealedDigest[],
  options: SealOptions,
): Promise<LedgerSealedData | null> {
  if (events.every((event) => event.type === 'LedgerSealed')) return null;
  // Two machines started with different keys (one made its own before the first seal) would
  // otherwise sign alternate seals with keys that cannot both be the published one.
  assertSealKeyMatches(signer, latest, options);
  const digests = events.map((event) => event.digest);
  const lastEvent = events[events.length - 1]!;
  const header: SealHeader = {
    sequence: (latest?.sequence ?? 0) + 1,
    after: latest?.last ?? null,
    last: { transactionId: lastEvent.transactionId, position: lastEvent.position },
    eventCount: events.length,
    merkleRoot: merkleRoot(digests).toString('hex'),
    previousSealHash: latest?.sealHash ?? null,
    sealedAt: (options.now?.() ?? new Date()).toISOString(),
    keyId: signer.keyId,
  };
  const sealHash = sealHashOf(header);
  const seal: LedgerSealedData = { ...header, sealHash, signature: signer.sign(sealHash) };
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query({
      name: 'insert-seal-leaves',
      text: 'INSERT INTO seal_leaves (sequence, positions, digests) VALUES ($1, $2, $3)',
      values: [seal.sequence, packPositions(events.map((event) => event.position)), Buffer.concat(digests)],
    });
    await appendInTransaction(client, sealStreamId, [{ type: 'LedgerSealed', data: seal }], { expectedVersion: seal.sequence - 1 });
    await client.query('COMMIT');
    return seal;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (error instanceof ConcurrencyError || isUniqueViolation(error)) return null;
    throw error;
  } finally {
    client.release();
  }
}

export interface SealAllSummary {
  readonly seals: number;
  readonly events: number;
}

export interface SealAllOptions extends SealOptions {
  readonly onSeal?: (seal: LedgerSealedData) => void;
  /** Digests the relay of this process already took (recent-digests.ts), sealed without reading the log again. */
  readonly recent?: RecentDigests;
}

/** Seals everything committed so far (e.g. before a purge or a receipt from the CLI). */
export async function sealAll(pool: Db, signer: SealSigner, options: SealAllOptions = {}): Promise<SealAllSummary> {
  const maxEvents = options.maxEvents ?? 10_000;
  let seals = 0;
  let events = 0;
  let latest = (await readLatestSeal(pool))?.data ?? null;
  // One horizon for the round: what commits later is sealed on the next round.
  const horizon = await readHorizonText(pool);
  const fromLog = (after: LogKey | null) => readSealedEvents(pool, after, { horizon }, maxEvents).then((read) => read.map(sealedDigestOf));
  // A read of the log begun while the stretch before it is hashed and written.
  let next: Promise<SealedDigest[]> | null = null;
  for (;;) {
    const recent = next ? null : (options.recent?.takeAfter(latest?.last ?? null, maxEvents) ?? null);
    const stretch = recent ?? (await (next ?? fromLog(latest?.last ?? null)));
    next = null;
    const last = stretch[stretch.length - 1];
    if (!recent && last && stretch.length === maxEvents) next = fromLog(last);
    const seal = await sealEvents(pool, signer, latest, stretch, options);
    if (!seal) break;
    seals++;
    events += seal.eventCount;
    latest = seal;
    options.recent?.release(seal.last);
    options.onSeal?.(seal);
    // A short read of the log reached the horizon; after the relay's digests the log may hold more.
    if (!recent && !next) break;
  }
  await next?.catch(() => undefined);
  return { seals, events };
}

export interface RunningSealer {
  stop(): Promise<void>;
}

/** Seals every `intervalMs` while the system runs; a failed round is reported and retried next time. */
export function startSealer(
  pool: Db,
  signer: SealSigner,
  options: SealAllOptions & { readonly intervalMs: number; readonly onError: (error: unknown) => void },
): RunningSealer {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const round = async () => {
    try {
      await sealAll(pool, signer, options);
    } catch (error) {
      if (!stopped) options.onError(error);
    }
    if (!stopped) timer = setTimeout(() => (running = round()), options.intervalMs);
  };
  timer = setTimeout(() => (running = round()), options.intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
