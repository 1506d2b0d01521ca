// The enrichment queue (enrichment_jobs, migration 018), worked here and filled by the
// enrichment-queue reactor: one query per function, parameterised, named for the logs. A job is
// queued → running → done | failed | cancelled. Its end is recorded as one event on the visitor's
// consent stream in the same transaction as the job's update, under an event id derived from the job,
// so however often a job is finished (a worker taken over, a retried transaction) the log holds one
// outcome for it.
import { createHash } from 'node:crypto';
import { consentStreamId, type EnrichmentDetails, type EnrichmentFailedData } from '@consentry/events';
import { appendInTransaction, withTransaction, type Db, type NewEvent, type Queryable } from '@consentry/infra';
import { cutText } from './provider';

export interface ClaimedJob {
  readonly jobId: string;
  readonly sourceEventId: string;
  readonly websiteId: string;
  readonly visitorId: string;
  /** The provider named when the job was queued. */
  readonly provider: string;
  readonly input: unknown;
  /** Provider calls made so far. */
  readonly attempts: number;
  readonly deadlineAt: Date;
  readonly lastError: string | null;
}

interface JobRow {
  job_id: string;
  source_event_id: string;
  website_id: string;
  visitor_id: string;
  provider: string;
  input: unknown;
  attempts: number;
  deadline_at: Date;
  last_error: string | null;
}

const jobColumns = 'j.job_id, j.source_event_id, j.website_id, j.visitor_id, j.provider, j.input, j.attempts, j.deadline_at, j.last_error';

const toJob = (row: JobRow): ClaimedJob => ({
  jobId: row.job_id,
  sourceEventId: row.source_event_id,
  websiteId: row.website_id,
  visitorId: row.visitor_id,
  provider: row.provider,
  input: row.input,
  attempts: row.attempts,
  deadlineAt: row.deadline_at,
  lastError: row.last_error,
});

/** The queue's name in queue_turns (migration 024), whose tenants are websites. */
export const enrichmentQueueName = 'enrichment';

/**
 * Claims up to `limit` due jobs, fairly across websites (docs/identification.md, "Enrichment"): round
 * robin, every website with due jobs gets its earliest one before any gets a second, and among them
 * the website whose last turn (queue_turns) is oldest goes first, websites never served before all;
 * within a website, the earliest due. So one website's thousands of queued jobs take one place per
 * round, and a website with a single lead waits one round, not behind the whole queue. SKIP LOCKED, so
 * workers never wait on each other. One statement: a skip scan finds the websites with queued jobs
 * (one probe of enrichment_jobs_queued_by_website each, migration 023), a LATERAL reads each one's
 * first due jobs from the same index, and only the chosen rows are locked. Twice the limit are
 * candidates, so rows another worker is claiming at that moment are passed over for the next ones.
 * The turn is taken by markWebsitesServed once a job goes to the provider (a job put back for want of
 * a rate-limit token is no turn). `expiredOnly` claims only jobs past their deadline, oldest first
 * (the sweep that runs with ENRICHMENT_PROVIDER=off, where no provider's budget is shared).
 */
export async function claimDueJobs(db: Queryable, workerId: string, now: Date, limit: number, options: { expiredOnly?: boolean } = {}): Promise<ClaimedJob[]> {
  if (options.expiredOnly) {
    const { rows } = await db.query<JobRow>({
      name: 'enrichment-claim-expired',
      text: `UPDATE enrichment_jobs j SET status = 'running', claimed_by = $1, claimed_at = $2
              WHERE j.job_id IN (
                SELECT job_id FROM enrichment_jobs
                 WHERE status = 'queued' AND next_attempt_at <= $2 AND deadline_at <= $2
                 ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
             RETURNING ${jobColumns}`,
      values: [workerId, now, limit],
    });
    return rows.map(toJob);
  }
  const { rows } = await db.query<JobRow & { claim_order: number }>({
    name: 'enrichment-claim-due-fairly',
    text: `WITH RECURSIVE websites AS (
             (SELECT website_id FROM enrichment_jobs WHERE status = 'queued' ORDER BY website_id LIMIT 1)
             UNION ALL
             SELECT (SELECT q.website_id FROM enrichment_jobs q WHERE q.status = 'queued' AND q.website_id > w.website_id ORDER BY q.website_id LIMIT 1)
               FROM websites w WHERE w.website_id IS NOT NULL
           ), candidates AS (
             SELECT due.job_id, row_number() OVER (ORDER BY due.turn, t.last_turn_at NULLS FIRST, due.next_attempt_at) AS claim_order
               FROM websites w
              CROSS JOIN LATERAL (
                SELECT q.job_id, q.next_attempt_at, row_number() OVER (ORDER BY q.next_attempt_at ROWS UNBOUNDED PRECEDING) AS turn
                  FROM enrichment_jobs q
                 WHERE q.status = 'queued' AND q.website_id = w.website_id AND q.next_attempt_at <= $2
                 ORDER BY q.next_attempt_at
                 LIMIT $3) AS due
               LEFT JOIN queue_turns t ON t.queue = $4 AND t.tenant = w.website_id::text
              WHERE w.website_id IS NOT NULL
              ORDER BY claim_order
              LIMIT $3 * 2
           ), chosen AS (
             SELECT j.job_id, c.claim_order FROM enrichment_jobs j JOIN candidates c ON c.job_id = j.job_id
              WHERE j.status = 'queued'
              ORDER BY c.claim_order
              LIMIT $3
                FOR UPDATE OF j SKIP LOCKED
           )
           UPDATE enrichment_jobs j SET status = 'running', claimed_by = $1, claimed_at = $2
             FROM chosen WHERE j.job_id = chosen.job_id
           RETURNING ${jobColumns}, chosen.claim_order`,
    values: [workerId, now, limit, enrichmentQueueName],
  });
  // In the fair order, so the jobs that get the round's rate-limit tokens are the first in it.
  return rows.sort((a, b) => a.claim_order - b.claim_order).map(toJob);
}

/**
 * Records that these websites had a job sent to the provider at `at` (their turn in the fair claim).
 * Rows are written in key order, so workers marking at once never deadlock.
 */
export async function markWebsitesServed(db: Queryable, websiteIds: readonly string[], at: Date): Promise<void> {
  const tenants = [...new Set(websiteIds)].sort();
  if (tenants.length === 0) return;
  await db.query({
    name: 'enrichment-mark-served',
    text: `INSERT INTO queue_turns AS q (queue, tenant, last_turn_at)
           SELECT $1, tenant, $3 FROM unnest($2::text[]) AS tenant ORDER BY tenant
           ON CONFLICT (queue, tenant) DO UPDATE SET last_turn_at = greatest(q.last_turn_at, excluded.last_turn_at)`,
    values: [enrichmentQueueName, tenants, at],
  });
}

/** Takes over jobs whose worker stopped answering (running longer than `staleAfterMs`). */
export async function claimStaleJobs(db: Queryable, workerId: string, now: Date, staleAfterMs: number, limit: number): Promise<ClaimedJob[]> {
  const { rows } = await db.query<JobRow>({
    name: 'enrichment-claim-stale',
    text: `UPDATE enrichment_jobs j SET claimed_by = $1, claimed_at = $2
            WHERE j.job_id IN (
              SELECT job_id FROM enrichment_jobs
               WHERE status = 'running' AND claimed_at < $2::timestamptz - make_interval(secs => $3::float8 / 1000)
               ORDER BY claimed_at LIMIT $4 FOR UPDATE SKIP LOCKED)
           RETURNING ${jobColumns}`,
    values: [workerId, now, staleAfterMs, limit],
  });
  return rows.map(toJob);
}

/**
 * Puts a claimed job back in the queue for `at` (never past its deadline, when the sweep ends it):
 * after a failed call (`attempts` then counts it, and `lastError` says why), or untouched when no
 * rate-limit token was left.
 */
export async function rescheduleJob(
  db: Queryable,
  job: ClaimedJob,
  workerId: string,
  at: Date,
  change: { readonly attempts: number; readonly lastError: string | null },
): Promise<boolean> {
  const { rowCount } = await db.query({
    name: 'enrichment-reschedule',
    text: `UPDATE enrichment_jobs SET status = 'queued', next_attempt_at = least($3::timestamptz, deadline_at),
                  attempts = $4, last_error = $5, claimed_by = NULL, claimed_at = NULL
            WHERE job_id = $1 AND claimed_by = $2 AND status = 'running'`,
    values: [job.jobId, workerId, at, change.attempts, change.lastError],
  });
  return rowCount === 1;
}

/** The event id of a job's outcome: derived from the job (a UUID, version 8), one per job whatever the outcome. */
export function enrichmentOutcomeEventId(jobId: string): string {
  const hex = createHash('sha256').update(`consentry:enrichment-outcome:${jobId.toLowerCase()}`).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export type JobEnd =
  | { readonly status: 'done'; readonly provider: string; readonly details: EnrichmentDetails; readonly attempts: number }
  | {
      readonly status: 'failed' | 'cancelled';
      readonly provider: string;
      readonly reason: EnrichmentFailedData['reason'];
      readonly detail: string;
      readonly attempts: number;
    };

function outcomeEvent(job: Pick<ClaimedJob, 'jobId' | 'websiteId' | 'visitorId'>, end: JobEnd, now: Date): NewEvent {
  const eventId = enrichmentOutcomeEventId(job.jobId);
  if (end.status === 'done') {
    return {
      type: 'LeadEnriched',
      eventId,
      data: { websiteId: job.websiteId, visitorId: job.visitorId, enrichmentId: job.jobId, provider: end.provider, details: end.details, enrichedAt: now.toISOString() },
    };
  }
  return {
    type: 'EnrichmentFailed',
    eventId,
    data: {
      websiteId: job.websiteId,
      visitorId: job.visitorId,
      enrichmentId: job.jobId,
      provider: end.provider,
      reason: end.reason,
      detail: cutText(end.detail, 500),
      attempts: Math.min(end.attempts, 10_000),
      failedAt: now.toISOString(),
    },
  };
}

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION;

/**
 * Ends a claimed job and appends its outcome, in one transaction, only while this worker still holds
 * the claim (a worker that was taken over, or a job the reactor cancelled meanwhile, records
 * nothing). Two jobs of one visitor ending at once race for the consent stream's next version; the
 * loser tries again. True when recorded.
 */
export async function finishJob(pool: Db, job: ClaimedJob, workerId: string, end: JobEnd, now: Date): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(pool, async (tx) => {
        const { rowCount } = await tx.query({
          name: 'enrichment-finish',
          text: `UPDATE enrichment_jobs SET status = $3, attempts = $4, finished_at = $5, claimed_by = NULL, claimed_at = NULL,
                        last_error = CASE WHEN $3 = 'done' THEN last_error ELSE $6 END
                  WHERE job_id = $1 AND claimed_by = $2 AND status = 'running'`,
          values: [job.jobId, workerId, end.status, end.attempts, now, end.status === 'done' ? null : cutText(end.detail, 500)],
        });
        if (rowCount !== 1) return false;
        await appendInTransaction(tx, consentStreamId(job.websiteId, job.visitorId), [outcomeEvent(job, end, now)]);
        return true;
      });
    } catch (error) {
      if (isUniqueViolation(error) && attempt < 10) continue;
      throw error;
    }
  }
}

/** enrichmentOutcomeEventId in SQL, for the job in `j` (the same bytes: SHA-256, version and variant set). */
const outcomeEventIdSql = `(SELECT (substr(h, 1, 12) || '8' || substr(h, 14, 3) || substr('89ab', (('x' || substr(h, 17, 1))::bit(4)::int & 3) + 1, 1) || substr(h, 18, 15))::uuid
     FROM (SELECT encode(sha256(convert_to('consentry:enrichment-outcome:' || lower(j.job_id::text), 'UTF8')), 'hex') AS h) AS hashed)`;

/**
 * Jobs the reactor cancelled (identification withdrawn) get their EnrichmentFailed 'withdrawn' once:
 * a cancelled job whose outcome event is not in the log yet is locked (SKIP LOCKED), and the event is
 * appended under the job's outcome id, so two workers, or a worker and its own earlier round, never
 * record it twice. Only jobs cancelled within `withinMs` are looked at, oldest first (a worker down
 * longer than that leaves older cancellations without their event). The order is what makes the
 * planner read them through the partial index enrichment_jobs_cancelled (migration 023): without
 * it, a table of jobs mostly finished lately looks cheaper to scan whole for the LIMIT's rows
 * (fair-claim.int.test.ts). Returns how many were recorded.
 */
export async function recordCancelledJobs(pool: Db, workerProvider: string | null, now: Date, options: { readonly limit: number; readonly withinMs: number }): Promise<number> {
  const { rows: pending } = await pool.query<{ job_id: string }>({
    name: 'enrichment-find-cancelled',
    text: `SELECT j.job_id FROM enrichment_jobs j
            WHERE j.status = 'cancelled' AND j.finished_at >= $1::timestamptz - make_interval(secs => $2::float8 / 1000)
              AND NOT EXISTS (SELECT 1 FROM events e WHERE e.event_id = ${outcomeEventIdSql})
            ORDER BY j.finished_at
            LIMIT $3`,
    values: [now, options.withinMs, options.limit],
  });
  let recorded = 0;
  for (const { job_id: jobId } of pending) {
    try {
      const done = await withTransaction(pool, async (tx) => {
        const { rows } = await tx.query<JobRow>({
          name: 'enrichment-lock-cancelled',
          text: `SELECT ${jobColumns} FROM enrichment_jobs j WHERE j.job_id = $1 AND j.status = 'cancelled' FOR UPDATE SKIP LOCKED`,
          values: [jobId],
        });
        const row = rows[0];
        if (!row) return false;
        const job = toJob(row);
        const { stored } = await appendInTransaction(tx, consentStreamId(job.websiteId, job.visitorId), [
          outcomeEvent(
            job,
            { status: 'cancelled', provider: providerNameOf(job, workerProvider), reason: 'withdrawn', detail: 'The visitor withdrew identification', attempts: job.attempts },
            now,
          ),
        ]);
        return stored.length > 0;
      });
      if (done) recorded++;
    } catch (error) {
      // Another worker recorded it at the same moment, or won the race for the stream's next
      // version: either way the job is looked at again next round (and then found recorded).
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return recorded;
}

/**
 * The provider an event names: the one this worker calls; with none configured, the name the job was
 * queued under (1–50 characters), or `none`.
 */
export function providerNameOf(job: Pick<ClaimedJob, 'provider'>, workerProvider: string | null): string {
  if (workerProvider) return workerProvider;
  return job.provider.length >= 1 && job.provider.length <= 50 ? job.provider : 'none';
}

export interface TokenGrant {
  /** Tokens taken (0..wanted). */
  readonly granted: number;
  /** When fewer were granted than wanted: how long until the next token. */
  readonly waitMs: number;
}

/**
 * Takes up to `wanted` tokens from the provider's bucket, shared by every worker process: the bucket
 * holds at most `burst` tokens and refills at `ratePerMinute`. The row is locked for the read and the
 * write, so two processes never take the same token.
 */
export async function takeRateTokens(
  pool: Db,
  provider: string,
  request: { readonly wanted: number; readonly ratePerMinute: number; readonly burst: number; readonly now: Date },
): Promise<TokenGrant> {
  const perMs = request.ratePerMinute / 60_000;
  return withTransaction(pool, async (tx) => {
    await tx.query({
      name: 'enrichment-rate-ensure',
      text: `INSERT INTO enrichment_rate_limits (provider, tokens, updated_at) VALUES ($1, $2, $3) ON CONFLICT (provider) DO NOTHING`,
      values: [provider, request.burst, request.now],
    });
    const { rows } = await tx.query<{ tokens: number; updated_at: Date }>({
      name: 'enrichment-rate-lock',
      text: 'SELECT tokens, updated_at FROM enrichment_rate_limits WHERE provider = $1 FOR UPDATE',
      values: [provider],
    });
    const bucket = rows[0]!;
    // A process whose clock is behind refills nothing rather than taking time back.
    const elapsedMs = Math.max(0, request.now.getTime() - bucket.updated_at.getTime());
    const available = Math.min(request.burst, bucket.tokens + elapsedMs * perMs);
    const granted = Math.max(0, Math.min(request.wanted, Math.floor(available)));
    const left = available - granted;
    await tx.query({
      name: 'enrichment-rate-take',
      text: 'UPDATE enrichment_rate_limits SET tokens = $2, updated_at = greatest(updated_at, $3) WHERE provider = $1',
      values: [provider, left, request.now],
    });
    return { granted, waitMs: granted < request.wanted ? Math.ceil((1 - left) / perMs) : 0 };
  });
}
