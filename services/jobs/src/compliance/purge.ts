// Retention purge (docs/compliance.md): removes each website's consent and analytics events received
// before its retention cut-off, in small transactions that neither pause ingest nor hold readers
// back. Each batch, in one transaction: deletes its events (the trigger lets a purge do that), lets
// every projection that had applied them bring its read model in line, and appends an EventsPurged
// event carrying the positions removed and anonymous per-day counts of what they were — so the
// dashboard keeps its historic totals, a replay rebuilds them, and `consentry verify` accepts the
// gaps. Everything to be removed is sealed first: the seals keep the removed events' digests.
import { randomUUID } from 'node:crypto';
import { analyticsEventTypes, consentEventTypes, visitorIdentificationEventTypes, type EventsPurgedData } from '@consentry/events';
import {
  appendInTransaction,
  eventColumns,
  isAfter,
  readLatestSeal,
  sealAll,
  toStoredEvent,
  withTransaction,
  type Db,
  type EventRow,
  type SealSigner,
} from '@consentry/infra';
import { asyncProjections, foldConsentDimensions, lockProjectionCheckpoints, foldConsentPurposes, type Website } from '@consentry/projections';
import { lockReadersPast, ReadersBehindError } from './log-readers';

/** Visitor data a purge removes; owner-side events (websites, users, branding…) are not personal data of visitors. */
export const purgeableTypes: readonly string[] = [...consentEventTypes, ...analyticsEventTypes, ...visitorIdentificationEventTypes];

/** The first instant still kept: the start of today (UTC) minus the retention period, in calendar months. */
export function retentionCutoff(now: Date, retentionMonths: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - retentionMonths, now.getUTCDate()));
}

export interface PurgeOptions {
  readonly dryRun?: boolean;
  readonly now?: Date;
  /** Events per transaction (default 2,000): small enough that no reader waits noticeably. */
  readonly batchSize?: number;
  /** How long to wait for a projection that has not applied old events yet (default 60 s). */
  readonly readerWaitMs?: number;
  readonly onProgress?: (removed: number, total: number) => void;
}

export interface WebsitePurgeSummary {
  readonly websiteId: string;
  readonly websiteName: string;
  readonly retentionMonths: number;
  readonly cutoff: string;
  /** Events removed (or, in a dry run, that would be). */
  readonly removed: number;
  readonly byType: Readonly<Record<string, number>>;
  readonly batches: number;
  readonly durationMs: number;
}

/** When the server recorded a purgeable event (identification events name it after what happened). */
const receivedAtOf = `COALESCE(data->>'receivedAt', data->>'matchedAt', data->>'enrichedAt', data->>'failedAt')`;

const candidatesWhere = `recorded_at < $2::timestamptz + interval '1 day'
              AND type = ANY($3::text[])
              AND data->>'websiteId' = $1
              AND ${receivedAtOf}::timestamptz < $2::timestamptz`;

export interface Purgeable {
  readonly byType: Record<string, number>;
  /** The last position holding one of them (0: none). */
  readonly lastPosition: number;
}

export async function countPurgeable(pool: Db, website: Website, cutoff: Date): Promise<Purgeable> {
  // The bound on recorded_at lets the BRIN index skip the newer log; receivedAt is what statistics bucket by.
  const { rows } = await pool.query<{ type: string; count: number; last: number }>({
    text: `SELECT type, count(*)::int8 AS count, max(position) AS last FROM events WHERE ${candidatesWhere} GROUP BY type ORDER BY type`,
    values: [website.id, cutoff.toISOString(), purgeableTypes],
  });
  return { byType: Object.fromEntries(rows.map((row) => [row.type, row.count])), lastPosition: Math.max(0, ...rows.map((row) => row.last)) };
}

/** Positions a batch looks through at most: a bounded range scan of the primary key, whatever the planner guesses. */
const scanWindow = 50_000;

export async function purgeWebsite(pool: Db, signer: SealSigner, website: Website, options: PurgeOptions = {}): Promise<WebsitePurgeSummary> {
  const started = performance.now();
  const cutoff = retentionCutoff(options.now ?? new Date(), website.retentionMonths);
  const { byType, lastPosition } = await countPurgeable(pool, website, cutoff);
  const total = Object.values(byType).reduce((sum, count) => sum + count, 0);
  const summary = (removed: number, batches: number): WebsitePurgeSummary => ({
    websiteId: website.id,
    websiteName: website.name,
    retentionMonths: website.retentionMonths,
    cutoff: cutoff.toISOString(),
    removed,
    byType,
    batches,
    durationMs: performance.now() - started,
  });
  if (options.dryRun || total === 0) return summary(options.dryRun ? total : 0, 0);

  await sealAll(pool, signer);
  const batchSize = options.batchSize ?? 2_000;
  const readerWaitMs = options.readerWaitMs ?? 60_000;
  const purgeId = randomUUID();
  let removed = 0;
  let batches = 0;
  let waitingSince: number | null = null;
  // Batches walk the log forward through bounded windows of positions: each starts after the last
  // one's end (never stepping over the index entries of rows deleted before it), and none reads
  // past its window (the planner, unable to guess how many rows match the filters, would
  // otherwise scan and sort everything after `after` for every batch).
  let after = 0;
  while (after < lastPosition) {
    const upTo = Math.min(after + scanWindow, lastPosition);
    let outcome: { removed: number; lastPosition: number };
    try {
      outcome = await purgeBatch(pool, website, cutoff, purgeId, batchSize, after, upTo);
      waitingSince = null;
    } catch (error) {
      if (!(error instanceof ReadersBehindError)) throw error;
      waitingSince ??= Date.now();
      if (Date.now() - waitingSince > readerWaitMs) throw error;
      // Old events only wait on a stopped or far-behind projector; new ones are never purged.
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    if (outcome.removed < batchSize) after = upTo;
    else after = outcome.lastPosition;
    if (outcome.removed === 0) continue;
    removed += outcome.removed;
    batches++;
    options.onProgress?.(removed, Math.max(total, removed));
  }
  await withTransaction(pool, async (tx) => {
    const cutoffDay = cutoff.toISOString().slice(0, 10);
    for (const projection of asyncProjections) {
      if (!projection.purgedBefore) continue;
      await lockProjectionCheckpoints(tx, projection);
      await projection.purgedBefore(website.id, cutoffDay, tx);
    }
  });
  return summary(removed, batches);
}

/** One batch in one transaction, from the positions after `after` up to `upTo`; returns how many events it removed. */
async function purgeBatch(
  pool: Db,
  website: Website,
  cutoff: Date,
  purgeId: string,
  batchSize: number,
  after: number,
  upTo: number,
): Promise<{ removed: number; lastPosition: number }> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<EventRow>({
      text: `SELECT ${eventColumns} FROM events
              WHERE position > $5 AND position <= $6 AND ${candidatesWhere}
              ORDER BY position LIMIT $4 FOR UPDATE`,
      values: [website.id, cutoff.toISOString(), purgeableTypes, batchSize, after, upTo],
    });
    if (rows.length === 0) return { removed: 0, lastPosition: after };
    const removed = rows.map(toStoredEvent);
    // Only sealed events are removed, so the seals keep their digests.
    const seal = await readLatestSeal(tx);
    const sealedUpTo = seal ? { transactionId: Number(seal.data.last.transactionId), position: seal.data.last.position } : null;
    const unsealed = removed.find((event) => !sealedUpTo || isAfter(event, sealedUpTo));
    if (unsealed) throw new Error(`Event at position ${unsealed.position} is not sealed yet; run the purge again`);
    const readers = await lockReadersPast(tx, removed);
    await tx.query('SET LOCAL consentry.maintenance = purge');
    await tx.query({ name: 'purge-delete-events', text: 'DELETE FROM events WHERE position = ANY($1::int8[])', values: [removed.map((event) => event.position)] });
    const eventId = randomUUID();
    for (const [projection, events] of readers) await projection.purged?.(events, eventId, tx);
    const counts = foldConsentDimensions(removed);
    const data: EventsPurgedData = {
      purgeId,
      websiteId: website.id,
      cutoff: cutoff.toISOString(),
      retentionMonths: website.retentionMonths,
      positions: runsOf(removed.map((event) => event.position)),
      removedEvents: removed.length,
      consents: counts.choices.map(({ day, deviceClass, source, accepted, declined }) => ({ day, deviceClass, source, accepted, declined })) as EventsPurgedData['consents'],
      purposes: foldConsentPurposes(removed),
      impressions: counts.impressions.map(({ day, position, theme, deviceClass, impressions }) => ({ day, position, theme, deviceClass, impressions })) as EventsPurgedData['impressions'],
      purgedAt: new Date().toISOString(),
    };
    await appendInTransaction(tx, `purges-${website.id}`, [{ type: 'EventsPurged', eventId, data }]);
    return { removed: removed.length, lastPosition: removed[removed.length - 1]!.position };
  });
}

/** Sorted positions as inclusive [first, last] runs. */
export function runsOf(positions: readonly number[]): [number, number][] {
  const sorted = [...positions].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const position of sorted) {
    const last = runs[runs.length - 1];
    if (last && position === last[1] + 1) last[1] = position;
    else runs.push([position, position]);
  }
  return runs;
}

