// The enrichment worker of `consentry start` (docs/identification.md, "Enrichment"): claims due jobs
// from enrichment_jobs with SKIP LOCKED, round robin across websites (any number of processes share
// the queue and the provider's budget; one website's backlog takes one place per round; a claim whose
// worker died is taken over), and for each, in this order:
//   1. past its 24-hour deadline → EnrichmentFailed 'deadline';
//   2. the visitor's latest choice in the log no longer allows identification → cancelled,
//      EnrichmentFailed 'withdrawn', and the provider is never asked;
//   3. a token from the provider's bucket, shared by every process (ENRICHMENT_RATE_PER_MINUTE); none
//      left → the job goes back to the queue until the next token;
//   4. the provider call, bounded by a timeout: details → LeadEnriched; nobody known → EnrichmentFailed
//      'not_found'; refused for good → 'rejected'; anything else → retried with exponential back-off
//      and jitter (never sooner than a Retry-After asked), until the deadline.
// Outcomes go on the visitor's consent stream in the transaction that ends the job (finishJob). Jobs
// the reactor cancelled get their 'withdrawn' event here too. With no provider (ENRICHMENT_PROVIDER=off)
// the worker only ends jobs at their deadline and records cancellations.
import { normalisedEmail } from '@consentry/events';
import { backoffMs, readEvent, startQueueRunner, type Claimed, type ClaimRequest, type Db } from '@consentry/infra';
import { z } from 'zod';
import { checkIdentificationAllowed, type IdentificationCheck } from './identification-check';
import {
  claimDueJobs,
  claimStaleJobs,
  finishJob,
  markWebsitesServed,
  providerNameOf,
  recordCancelledJobs,
  rescheduleJob,
  takeRateTokens,
  type ClaimedJob,
  type JobEnd,
} from './jobs';
import { cutText, PermanentError, RetryableError, type EnrichmentInput, type EnrichmentProvider } from './provider';

export interface EnrichmentWorkerOptions {
  readonly pool: Db;
  /** Names this worker in the queue (host and process). */
  readonly workerId: string;
  /** null: ENRICHMENT_PROVIDER=off, only deadlines and cancellations are recorded. */
  readonly provider: EnrichmentProvider | null;
  /** Provider calls per minute across every worker (ENRICHMENT_RATE_PER_MINUTE, default 60). */
  readonly ratePerMinute?: number;
  /** Tokens the bucket holds at most (default: one second's worth, at least 1). */
  readonly burst?: number;
  /** Provider calls in flight at once in this process (default 4). */
  readonly concurrency?: number;
  /** How long a provider has to answer (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** First retry delay; doubles with each attempt up to `maxBackoffMs` (defaults 30 s and 1 h). */
  readonly baseBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** How often an idle worker looks for due jobs (default 1 s; 30 s without a provider). */
  readonly pollMs?: number;
  /** A running claim older than this is taken over (default: 3 × the request timeout, at least 2 min). */
  readonly staleAfterMs?: number;
  /** How often stale claims and reactor cancellations are looked for (default 10 s). */
  readonly sweepEveryMs?: number;
  /** How far back reactor cancellations are looked for (default 7 days). */
  readonly cancelledWithinMs?: number;
  /** The re-check against the log (ingest's checkIdentificationAllowed once it is exported). */
  readonly checkIdentification?: IdentificationCheck;
  readonly now?: () => Date;
  /** [0, 1) for the jitter. */
  readonly random?: () => number;
  /** Told about each job's step, for the operator's log (never an email or a secret). */
  readonly onOutcome?: (outcome: EnrichmentOutcomeReport) => void;
  /** Told when tokens ran out (tests count it). */
  readonly onRateLimited?: (waitMs: number) => void;
  /** Told about what could not even be recorded (the database gone); the worker keeps going. */
  readonly onError?: (error: unknown) => void;
}

export type EnrichmentOutcomeKind = 'enriched' | 'not_found' | 'rejected' | 'deadline' | 'withdrawn' | 'retry';

export interface EnrichmentOutcomeReport {
  readonly jobId: string;
  readonly websiteId: string;
  readonly provider: string;
  readonly outcome: EnrichmentOutcomeKind;
  /** Provider calls made for the job so far. */
  readonly attempts: number;
  /** Why (a failure's words; never personal data or secrets). */
  readonly detail: string | null;
  /** For a retry: when. */
  readonly nextAttemptAt: Date | null;
  /** False when another worker (or the reactor) had the job meanwhile, so nothing was recorded. */
  readonly recorded: boolean;
}

const jobInput = z.object({
  email: normalisedEmail.nullish(),
  domain: z.string().min(1).max(255).nullish(),
  company: z.string().min(1).max(200).nullish(),
});

// The back-off before the next call is the queue runner's (exponential, jittered, never sooner than
// the provider asked); exported here under its old name.
export { backoffMs };

type Prepared = { readonly job: ClaimedJob; readonly input: EnrichmentInput };

export interface EnrichmentWorker {
  stop(): Promise<void>;
}

export function startEnrichmentWorker(options: EnrichmentWorkerOptions): EnrichmentWorker {
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const provider = options.provider;
  const ratePerMinute = Math.max(1, options.ratePerMinute ?? 60);
  const burst = Math.max(1, options.burst ?? Math.floor(ratePerMinute / 60));
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const staleAfterMs = options.staleAfterMs ?? Math.max(120_000, 3 * requestTimeoutMs);
  const sweepEveryMs = options.sweepEveryMs ?? 10_000;
  // Without a provider there is only the deadline sweep to run: no hurry.
  const pollMs = options.pollMs ?? (provider ? 1_000 : 30_000);
  const check = options.checkIdentification ?? checkIdentificationAllowed;
  const workerProvider = provider?.name ?? null;
  let tokensAt = 0;

  const report = (job: ClaimedJob, outcome: EnrichmentOutcomeKind, attempts: number, detail: string | null, recorded: boolean, nextAttemptAt: Date | null = null): void =>
    options.onOutcome?.({ jobId: job.jobId, websiteId: job.websiteId, provider: providerNameOf(job, workerProvider), outcome, attempts, detail, nextAttemptAt, recorded });

  const end = async (job: ClaimedJob, jobEnd: JobEnd, outcome: EnrichmentOutcomeKind): Promise<void> => {
    const recorded = await finishJob(options.pool, job, options.workerId, jobEnd, now());
    report(job, outcome, jobEnd.attempts, jobEnd.status === 'done' ? null : jobEnd.detail, recorded);
  };

  const endAtDeadline = (job: ClaimedJob): Promise<void> =>
    end(
      job,
      {
        status: 'failed',
        provider: providerNameOf(job, workerProvider),
        reason: 'deadline',
        detail: job.attempts === 0 ? 'No provider answered within 24 hours' : `Gave up after ${job.attempts} attempts in 24 hours; last: ${job.lastError ?? 'unknown'}`,
        attempts: job.attempts,
      },
      'deadline',
    );

  /** Steps 1 and 2: ends the job when it is past its deadline, malformed or withdrawn; else its input. */
  const prepare = async (job: ClaimedJob): Promise<Prepared | null> => {
    if (job.deadlineAt.getTime() <= now().getTime()) {
      await endAtDeadline(job);
      return null;
    }
    const parsed = jobInput.safeParse(job.input);
    if (!parsed.success) {
      await end(job, { status: 'failed', provider: providerNameOf(job, workerProvider), reason: 'rejected', detail: 'The job’s input is not { email, domain, company }', attempts: job.attempts }, 'rejected');
      return null;
    }
    if (!(await stillAllowed(job))) {
      await end(job, { status: 'cancelled', provider: providerNameOf(job, workerProvider), reason: 'withdrawn', detail: 'The visitor withdrew identification', attempts: job.attempts }, 'withdrawn');
      return null;
    }
    return { job, input: { email: parsed.data.email ?? null, domain: parsed.data.domain ?? null, company: parsed.data.company ?? null } };
  };

  /** The identification (or company match) still stands in the log, and the visitor's latest choice allows it. */
  const stillAllowed = async (job: ClaimedJob): Promise<boolean> => {
    const source = await readEvent(options.pool, job.sourceEventId);
    if (!source) return false;
    let consentEventId: string;
    if (source.type === 'VisitorIdentified') {
      // Erased: the email is gone, and with it anything to enrich.
      if (source.data.email === null) return false;
      consentEventId = source.data.consentEventId;
    } else if (source.type === 'CompanyMatched') {
      if (source.data.organisation === null) return false;
      consentEventId = source.data.consentEventId;
    } else return false;
    return check(options.pool, { websiteId: job.websiteId, visitorId: job.visitorId, consentEventId });
  };

  /** Step 4: one provider call and what follows from it; `stopping` aborts when the worker stops. */
  const call = async ({ job, input }: Prepared, stopping: AbortSignal): Promise<void> => {
    if (stopping.aborted) {
      // Claimed as the worker stopped: no call is made, so none is counted; the job goes back at once.
      await rescheduleJob(options.pool, job, options.workerId, now(), { attempts: job.attempts, lastError: job.lastError });
      return;
    }
    const attempts = job.attempts + 1;
    const name = provider!.name;
    const signal = AbortSignal.any([stopping, AbortSignal.timeout(requestTimeoutMs)]);
    try {
      const result = await provider!.enrich(input, { id: job.jobId, signal });
      if (result.kind === 'found') await end(job, { status: 'done', provider: name, details: result.details, attempts }, 'enriched');
      else await end(job, { status: 'failed', provider: name, reason: 'not_found', detail: result.detail ?? 'The provider knows nobody by these details', attempts }, 'not_found');
    } catch (error) {
      if (error instanceof PermanentError) {
        await end(job, { status: 'failed', provider: name, reason: 'rejected', detail: error.message, attempts }, 'rejected');
        return;
      }
      const detail = error instanceof RetryableError ? error.message : 'The provider adapter failed unexpectedly';
      if (!(error instanceof RetryableError)) options.onError?.(error);
      const retryAfter = error instanceof RetryableError ? error.retryAfterMs : null;
      // Stopping: the job goes back at once, to whichever worker runs next.
      const delay = stopping.aborted
        ? 0
        : backoffMs(attempts, { baseMs: options.baseBackoffMs ?? 30_000, maxMs: options.maxBackoffMs ?? 3_600_000, retryAfterMs: retryAfter, random: random() });
      const at = new Date(Math.min(now().getTime() + delay, job.deadlineAt.getTime()));
      const recorded = await rescheduleJob(options.pool, job, options.workerId, at, { attempts, lastError: cutText(detail, 500) });
      report(job, 'retry', attempts, detail, recorded, at);
    }
  };

  /** Stale claims and the reactor's cancellations, on the runner's sweeps (each read through its partial index). */
  const sweep = async (at: Date, free: number): Promise<ClaimedJob[]> => {
    await recordCancelledJobs(options.pool, workerProvider, at, { limit: 100, withinMs: options.cancelledWithinMs ?? 7 * 24 * 3_600_000 });
    return free > 0 ? claimStaleJobs(options.pool, options.workerId, at, staleAfterMs, free) : [];
  };

  /**
   * One round: steps 1 to 3 for the jobs claimed, and the jobs that got a token, for the provider
   * calls. `more` when it found work, so the runner looks again at once.
   */
  const claim = async ({ free, sweep: sweeping }: ClaimRequest): Promise<Claimed<Prepared>> => {
    const at = now();
    const stale = sweeping ? await sweep(at, free) : [];
    if (!provider) {
      const expired = [...stale, ...(await claimDueJobs(options.pool, options.workerId, at, 100, { expiredOnly: true }))];
      // Taken-over jobs that are not yet due go back untouched.
      await Promise.all(
        expired.map((job) =>
          job.deadlineAt.getTime() <= at.getTime()
            ? endAtDeadline(job)
            : rescheduleJob(options.pool, job, options.workerId, job.deadlineAt, { attempts: job.attempts, lastError: job.lastError }),
        ),
      );
      return { items: [], more: expired.length === 100 };
    }
    if (free <= 0 || at.getTime() < tokensAt) {
      for (const job of stale) await rescheduleJob(options.pool, job, options.workerId, at, { attempts: job.attempts, lastError: job.lastError });
      return { items: [], more: false, resumeAt: tokensAt };
    }
    const claimed = [...stale, ...(stale.length < free ? await claimDueJobs(options.pool, options.workerId, at, free - stale.length) : [])];
    if (claimed.length === 0) return { items: [], more: false, resumeAt: tokensAt };
    const ready = (await Promise.all(claimed.map(prepare))).filter((prepared): prepared is Prepared => prepared !== null);
    if (ready.length === 0) return { items: [], more: true, resumeAt: tokensAt };
    const grant = await takeRateTokens(options.pool, provider.name, { wanted: ready.length, ratePerMinute, burst, now: now() });
    const waiting = ready.slice(grant.granted);
    if (waiting.length > 0) {
      tokensAt = now().getTime() + grant.waitMs;
      options.onRateLimited?.(grant.waitMs);
      const backAt = new Date(tokensAt);
      for (const { job } of waiting) await rescheduleJob(options.pool, job, options.workerId, backAt, { attempts: job.attempts, lastError: job.lastError });
    }
    const going = ready.slice(0, grant.granted);
    // Their websites' turn in the fair claim: served now, so the next claim starts with the others.
    // A turn not recorded only makes the next claim less fair; the calls go ahead.
    await markWebsitesServed(options.pool, going.map(({ job }) => job.websiteId), now()).catch((error: unknown) => options.onError?.(error));
    return { items: going, more: true, resumeAt: tokensAt };
  };

  const runner = startQueueRunner<Prepared>({
    name: 'enrichment',
    concurrency,
    pollMs,
    sweepEveryMs,
    // The sweeps and the provider-less deadline ends need no slot.
    claimWhenFull: true,
    claim,
    work: (prepared, { signal }) => call(prepared, signal),
    now: () => now().getTime(),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return { stop: () => runner.stop() };
}
