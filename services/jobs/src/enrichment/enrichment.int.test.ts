// The enrichment worker against real Postgres and providers that are real HTTP servers on loopback:
// our signed contract misbehaving on purpose (slow beyond the timeout, 429 with Retry-After, 5xx,
// answers that are not JSON or off the contract, forged, unsigned or re-addressed signatures, nobody
// known), and Hunter's documented shapes. Jobs are inserted as the enrichment-queue reactor inserts
// them; consents and identifications go through the group-commit appender as ingest's do. Outcomes
// are counted in the log. Delays are milliseconds; nothing asserts how long anything took.
import { randomUUID } from 'node:crypto';
import { consentStreamId, optionalPurposes, grantAll, type EnrichmentFailedData, type LeadEnrichedData } from '@consentry/events';
import { createGroupCommitAppender, type GroupCommitAppender, type NewEvent } from '@consentry/infra';
import { consentEvent, createTestDatabase, waitFor, type TestDatabase } from '@consentry/infra/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpEnrichmentProvider } from './http-provider';
import { createHunterEnrichmentProvider } from './hunter-provider';
import { HunterServer, hunterTestKey } from './hunter-server.test-helper';
import { claimDueJobs, enrichmentOutcomeEventId, finishJob, recordCancelledJobs } from './jobs';
import { defaultDetails, TestProvider, type ProviderStep } from './test-provider.test-helper';
import { startEnrichmentWorker, type EnrichmentOutcomeReport, type EnrichmentWorker, type EnrichmentWorkerOptions } from './worker';

let db: TestDatabase;
let appender: GroupCommitAppender;
const provider = new TestProvider();
const hunter = new HunterServer();
const workers: EnrichmentWorker[] = [];
const reports: EnrichmentOutcomeReport[] = [];

beforeAll(async () => {
  db = await createTestDatabase('enrichment', { poolSize: 12 });
  appender = createGroupCommitAppender(db.pool);
  await Promise.all([provider.start(), hunter.start()]);
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});
afterAll(async () => {
  await appender?.close();
  await Promise.all([provider.close(), hunter.close()]);
  await db?.drop();
});

const httpProvider = (name = 'http') => createHttpEnrichmentProvider({ url: provider.url, secret: provider.secret, name });

function startWorker(options: Partial<EnrichmentWorkerOptions> = {}): EnrichmentWorker {
  const worker = startEnrichmentWorker({
    pool: db.pool,
    workerId: `test-${randomUUID().slice(0, 8)}`,
    provider: httpProvider(),
    ratePerMinute: 100_000,
    // Generous, so a loaded machine never turns an answer into a timeout; the slow cases set less.
    requestTimeoutMs: 2_000,
    baseBackoffMs: 5,
    maxBackoffMs: 50,
    pollMs: 20,
    sweepEveryMs: 20,
    onOutcome: (report) => reports.push(report),
    ...options,
  });
  workers.push(worker);
  return worker;
}

/** A choice on a banner that offers every purpose, identification included. */
function choice(websiteId: string, visitorId: string, kind: 'accept_all' | 'keep_identification' | 'decline'): NewEvent & { eventId: string } {
  const base = consentEvent({ websiteId, visitorId, choice: kind === 'decline' ? 'declined' : 'accepted' });
  const purposes =
    kind === 'accept_all' ? grantAll(optionalPurposes) : kind === 'keep_identification' ? { ...grantAll([]), identification: true } : grantAll([]);
  const method = kind === 'accept_all' ? 'accept_all' : kind === 'decline' ? 'reject_all' : 'custom';
  return { ...base, data: { ...base.data, offered: [...optionalPurposes], purposes, method } } as NewEvent & { eventId: string };
}

interface Lead {
  readonly websiteId: string;
  readonly visitorId: string;
  readonly jobId: string;
  readonly email: string;
  readonly streamId: string;
}

/**
 * A visitor who allowed identification and sent a form, and the job the reactor queued for it; with
 * `visitor`, the same visitor sending another form.
 */
async function identifiedLead(
  email: string,
  job: { deadlineInMs?: number; status?: 'queued' | 'running' | 'cancelled'; claimedAgoMs?: number } = {},
  visitor?: { websiteId: string; visitorId: string; consentEventId: string },
): Promise<Lead & { consentEventId: string }> {
  const websiteId = visitor?.websiteId ?? randomUUID();
  const visitorId = visitor?.visitorId ?? randomUUID();
  const streamId = consentStreamId(websiteId, visitorId);
  let allowing: { eventId: string } | undefined = visitor ? { eventId: visitor.consentEventId } : undefined;
  if (!allowing) {
    const event = choice(websiteId, visitorId, 'accept_all');
    await appender.append({ streamId, event });
    allowing = event;
  }
  const identifiedId = randomUUID();
  const now = new Date().toISOString();
  await appender.append({
    streamId,
    event: {
      type: 'VisitorIdentified',
      eventId: identifiedId,
      data: { websiteId, visitorId, source: 'form', email, name: null, company: null, pageUrl: 'https://www.example.com/contact', consentEventId: allowing.eventId, occurredAt: now, receivedAt: now },
    },
  });
  const jobId = randomUUID();
  const status = job.status ?? 'queued';
  await db.pool.query(
    `INSERT INTO enrichment_jobs (job_id, source_event_id, website_id, visitor_id, provider, input, status, next_attempt_at, deadline_at, created_at,
                                  claimed_by, claimed_at, finished_at, last_error)
     VALUES ($1, $2, $3, $4, 'default', $5, $6, now(), now() + make_interval(secs => $7::float8 / 1000), now(),
             CASE WHEN $6 = 'running' THEN 'a-worker-that-died' END,
             CASE WHEN $6 = 'running' THEN now() - make_interval(secs => $8::float8 / 1000) END,
             CASE WHEN $6 = 'cancelled' THEN now() END,
             CASE WHEN $6 = 'cancelled' THEN 'Identification withdrawn' END)`,
    [jobId, identifiedId, websiteId, visitorId, JSON.stringify({ email, domain: email.split('@')[1], company: null }), status, job.deadlineInMs ?? 86_400_000, job.claimedAgoMs ?? 0],
  );
  return { websiteId, visitorId, jobId, email, streamId, consentEventId: allowing.eventId };
}

type Outcome = { type: 'LeadEnriched'; data: LeadEnrichedData; event_id: string } | { type: 'EnrichmentFailed'; data: EnrichmentFailedData; event_id: string };

async function outcomesOf(lead: Lead): Promise<Outcome[]> {
  const { rows } = await db.pool.query<Outcome>(
    `SELECT type, data, event_id FROM events WHERE stream_id = $1 AND type IN ('LeadEnriched', 'EnrichmentFailed') ORDER BY position`,
    [lead.streamId],
  );
  return rows;
}

const outcomeOf = async (lead: Lead): Promise<Outcome> => {
  const [outcome] = await waitFor(async () => {
    const found = await outcomesOf(lead);
    return found.length > 0 ? found : null;
  }, { timeoutMs: 20_000, message: `the outcome of ${lead.email}` });
  return outcome!;
};

async function jobOf(lead: Lead): Promise<{ status: string; attempts: number; last_error: string | null; finished_at: Date | null }> {
  const { rows } = await db.pool.query('SELECT status, attempts, last_error, finished_at FROM enrichment_jobs WHERE job_id = $1', [lead.jobId]);
  return rows[0];
}

describe('a provider that answers at once', () => {
  it('gives a LeadEnriched on the visitor’s consent stream, under the job’s outcome id, from one signed request', async () => {
    const lead = await identifiedLead('ada@analytical.example');
    startWorker();
    const outcome = await outcomeOf(lead);
    expect(outcome).toMatchObject({
      type: 'LeadEnriched',
      event_id: enrichmentOutcomeEventId(lead.jobId),
      data: { websiteId: lead.websiteId, visitorId: lead.visitorId, enrichmentId: lead.jobId, provider: 'http', details: defaultDetails },
    });
    expect(await jobOf(lead)).toMatchObject({ status: 'done', attempts: 1 });
    expect(provider.requestsFor(lead.email)).toEqual([
      expect.objectContaining({ email: lead.email, domain: 'analytical.example', company: null, id: lead.jobId, verified: true }),
    ]);
  });
});

describe('a provider that misbehaves, then answers', () => {
  it.each<[string, ProviderStep[], RegExp]>([
    ['slow beyond the request timeout', [{ kind: 'slow', ms: 3_000 }, { kind: 'found' }], /No answer within the request timeout/],
    ['5xx twice', [{ kind: 'status', status: 500 }, { kind: 'status', status: 503 }, { kind: 'found' }], /answered 50[03]/],
    ['not JSON, then off the contract', [{ kind: 'not_json' }, { kind: 'off_contract' }, { kind: 'found' }], /not JSON|did not match the contract/],
    ['forged, unsigned and re-addressed signatures', [{ kind: 'forged' }, { kind: 'unsigned' }, { kind: 'other_id' }, { kind: 'found' }], /signature was refused/],
  ])('%s: retried with back-off until the details come, recorded once', async (label, steps, retryDetail) => {
    const email = `${label.replace(/[^a-z]+/g, '-')}@analytical.example`;
    provider.script(email, steps);
    const lead = await identifiedLead(email);
    startWorker(steps[0]!.kind === 'slow' ? { requestTimeoutMs: 300 } : {});
    const outcome = await outcomeOf(lead);
    expect(outcome).toMatchObject({ type: 'LeadEnriched', data: { enrichmentId: lead.jobId, details: defaultDetails } });
    expect(await jobOf(lead)).toMatchObject({ status: 'done', attempts: steps.length });
    expect(provider.requestsFor(email).map((request) => request.step)).toEqual(steps.map((step) => step.kind));
    const retries = reports.filter((report) => report.jobId === lead.jobId && report.outcome === 'retry');
    expect(retries).toHaveLength(steps.length - 1);
    expect(retries.every((report) => retryDetail.test(report.detail ?? ''))).toBe(true);
    // Still exactly one outcome, after the worker has gone on polling.
    expect(await outcomesOf(lead)).toHaveLength(1);
  });

  it('429 with Retry-After: the next call waits at least as long as asked', async () => {
    const email = 'busy@analytical.example';
    provider.script(email, [{ kind: 'status', status: 429, retryAfter: '1' }, { kind: 'found' }]);
    const lead = await identifiedLead(email);
    startWorker();
    expect((await outcomeOf(lead)).type).toBe('LeadEnriched');
    const [refused] = provider.requestsFor(email);
    const retry = reports.find((report) => report.jobId === lead.jobId && report.outcome === 'retry');
    expect(retry?.detail).toMatch(/429/);
    // The back-off alone would be milliseconds here; Retry-After asked for a second.
    expect(retry!.nextAttemptAt!.getTime() - refused!.at).toBeGreaterThanOrEqual(1_000);
  });
});

describe('a provider that never recovers', () => {
  it('always 5xx: EnrichmentFailed "deadline" once the deadline passes, naming the last error', async () => {
    const email = 'broken@analytical.example';
    provider.script(email, [{ kind: 'status', status: 500 }]);
    const lead = await identifiedLead(email, { deadlineInMs: 2_000 });
    startWorker();
    const outcome = await outcomeOf(lead);
    expect(outcome).toMatchObject({ type: 'EnrichmentFailed', data: { reason: 'deadline', enrichmentId: lead.jobId, provider: 'http' } });
    const data = outcome.data as EnrichmentFailedData;
    expect(data.attempts).toBeGreaterThanOrEqual(1);
    expect(data.attempts).toBe(provider.requestsFor(email).length);
    expect(data.detail).toMatch(/last: The provider answered 500/);
    expect(await jobOf(lead)).toMatchObject({ status: 'failed' });
  });

  it('never answering: EnrichmentFailed "deadline", each call ended by the timeout', async () => {
    const email = 'silent@analytical.example';
    provider.script(email, [{ kind: 'hang' }]);
    const lead = await identifiedLead(email, { deadlineInMs: 2_000 });
    startWorker({ requestTimeoutMs: 300 });
    const outcome = await outcomeOf(lead);
    expect(outcome).toMatchObject({ type: 'EnrichmentFailed', data: { reason: 'deadline' } });
    expect((outcome.data as EnrichmentFailedData).detail).toMatch(/No answer within the request timeout/);
  });
});

describe('a provider that knows nobody, or refuses the input', () => {
  it('404: EnrichmentFailed "not_found" after one call', async () => {
    provider.script('nobody@analytical.example', [{ kind: 'not_found' }]);
    const lead = await identifiedLead('nobody@analytical.example');
    startWorker();
    expect(await outcomeOf(lead)).toMatchObject({ type: 'EnrichmentFailed', data: { reason: 'not_found', attempts: 1 } });
    expect(provider.requestsFor(lead.email)).toHaveLength(1);
  });

  it('422: EnrichmentFailed "rejected" after one call', async () => {
    provider.script('odd@analytical.example', [{ kind: 'status', status: 422 }]);
    const lead = await identifiedLead('odd@analytical.example');
    startWorker();
    expect(await outcomeOf(lead)).toMatchObject({ type: 'EnrichmentFailed', data: { reason: 'rejected', attempts: 1 } });
    expect(provider.requestsFor(lead.email)).toHaveLength(1);
  });
});

describe('when the visitor withdraws identification before the call', () => {
  it('the provider is never asked: the job is cancelled with EnrichmentFailed "withdrawn"', async () => {
    const lead = await identifiedLead('changed-mind@analytical.example');
    await appender.append({ streamId: lead.streamId, event: choice(lead.websiteId, lead.visitorId, 'decline') });
    startWorker();
    expect(await outcomeOf(lead)).toMatchObject({ type: 'EnrichmentFailed', data: { reason: 'withdrawn', attempts: 0, provider: 'http' } });
    expect(await jobOf(lead)).toMatchObject({ status: 'cancelled' });
    expect(provider.requestsFor(lead.email)).toEqual([]);
  });

  it('but a later choice that keeps identification on does not withdraw it', async () => {
    const lead = await identifiedLead('kept@analytical.example');
    await appender.append({ streamId: lead.streamId, event: choice(lead.websiteId, lead.visitorId, 'keep_identification') });
    startWorker();
    expect((await outcomeOf(lead)).type).toBe('LeadEnriched');
  });
});

describe('jobs the reactor cancelled', () => {
  it('get one EnrichmentFailed "withdrawn" however many workers sweep, and no call', async () => {
    const lead = await identifiedLead('withdrawn@analytical.example', { status: 'cancelled' });
    startWorker();
    startWorker();
    const outcome = await outcomeOf(lead);
    expect(outcome).toMatchObject({ type: 'EnrichmentFailed', event_id: enrichmentOutcomeEventId(lead.jobId), data: { reason: 'withdrawn', enrichmentId: lead.jobId } });
    // Sweeping again finds it recorded (the SQL outcome id is the JavaScript one).
    expect(await recordCancelledJobs(db.pool, 'http', new Date(), { limit: 100, withinMs: 3_600_000 })).toBe(0);
    expect(await outcomesOf(lead)).toHaveLength(1);
    expect(provider.requestsFor(lead.email)).toEqual([]);
  });
});

describe('a claim whose worker died', () => {
  it('is taken over and the job enriched once', async () => {
    const lead = await identifiedLead('orphan@analytical.example', { status: 'running', claimedAgoMs: 3_600_000 });
    startWorker({ staleAfterMs: 60_000 });
    expect((await outcomeOf(lead)).type).toBe('LeadEnriched');
    expect(await outcomesOf(lead)).toHaveLength(1);
    expect(provider.requestsFor(lead.email)).toHaveLength(1);
  });
});

describe('two workers on one queue', () => {
  it('process each job exactly once: one outcome in the log and one provider call per job', async () => {
    const leads = await Promise.all(Array.from({ length: 30 }, (_, index) => identifiedLead(`shared-${index}@analytical.example`)));
    // A timeout generous enough that a loaded machine does not turn a call into a retry.
    startWorker({ concurrency: 4, requestTimeoutMs: 10_000 });
    startWorker({ concurrency: 4, requestTimeoutMs: 10_000 });
    await Promise.all(leads.map(outcomeOf));
    const { rows } = await db.pool.query<{ enrichment_id: string; count: number }>(
      `SELECT data->>'enrichmentId' AS enrichment_id, count(*)::int AS count FROM events
        WHERE type IN ('LeadEnriched', 'EnrichmentFailed') AND data->>'enrichmentId' = ANY($1::text[]) GROUP BY 1`,
      [leads.map((lead) => lead.jobId)],
    );
    expect(rows).toHaveLength(30);
    expect(rows.every((row) => row.count === 1)).toBe(true);
    for (const lead of leads) {
      expect(provider.requestsFor(lead.email)).toHaveLength(1);
      expect(await jobOf(lead)).toMatchObject({ status: 'done', attempts: 1 });
    }
  });
});

describe('several jobs of one visitor ending at once', () => {
  it('each get their own outcome on the visitor’s stream, none lost to the race for its next version', async () => {
    // All answered together, so the eight ends meet at the stream at the same moment.
    for (let index = 0; index < 8; index++) provider.script(`many-${index}@analytical.example`, [{ kind: 'slow', ms: 300 }]);
    const first = await identifiedLead('many-0@analytical.example');
    const others = [];
    for (let index = 1; index < 8; index++) others.push(await identifiedLead(`many-${index}@analytical.example`, {}, first));
    startWorker({ concurrency: 4 });
    startWorker({ concurrency: 4 });
    const all = [first, ...others];
    await waitFor(async () => (await outcomesOf(first)).length === all.length, { timeoutMs: 20_000, message: 'an outcome for every job' });
    const outcomes = await outcomesOf(first);
    expect(outcomes.map((outcome) => outcome.type)).toEqual(all.map(() => 'LeadEnriched'));
    expect(new Set(outcomes.map((outcome) => outcome.data.enrichmentId))).toEqual(new Set(all.map((lead) => lead.jobId)));
  });
});

describe('outcomes racing for one consent stream', () => {
  it('are all recorded: the loser of the race for the stream’s next version tries again', async () => {
    const first = await identifiedLead('race-0@analytical.example');
    const leads = [first];
    for (let index = 1; index < 6; index++) leads.push(await identifiedLead(`race-${index}@analytical.example`, {}, first));
    // A second ahead: the database stamps next_attempt_at in microseconds, a JS Date holds only
    // milliseconds, so the job queued last could otherwise be a fraction of a millisecond "in the future".
    const claimed = (await claimDueJobs(db.pool, 'racer', new Date(Date.now() + 1000), 100)).filter((job) => job.visitorId === first.visitorId);
    expect(claimed).toHaveLength(6);
    const now = new Date();
    const recorded = await Promise.all(
      claimed.map((job) => finishJob(db.pool, job, 'racer', { status: 'done', provider: 'http', details: defaultDetails, attempts: 1 }, now)),
    );
    expect(recorded).toEqual(claimed.map(() => true));
    expect((await outcomesOf(first)).map((outcome) => outcome.data.enrichmentId).sort()).toEqual(leads.map((lead) => lead.jobId).sort());
    // Finishing again records nothing: the claim is gone.
    expect(await finishJob(db.pool, claimed[0]!, 'racer', { status: 'done', provider: 'http', details: defaultDetails, attempts: 1 }, now)).toBe(false);
  });
});

describe('the rate limit', () => {
  it('is shared by every worker: calls made never exceed the bucket plus what the rate added meanwhile', async () => {
    const ratePerMinute = 120;
    const burst = 2;
    const limited = () => createHttpEnrichmentProvider({ url: provider.url, secret: provider.secret, name: 'http-limited' });
    const leads = await Promise.all(Array.from({ length: 20 }, (_, index) => identifiedLead(`limited-${index}@analytical.example`)));
    const callsMade = () => leads.reduce((sum, lead) => sum + provider.requestsFor(lead.email).length, 0);
    let refusals = 0;
    const started = Date.now();
    for (let index = 0; index < 2; index++) {
      startWorker({ provider: limited(), ratePerMinute, burst, concurrency: 4, onRateLimited: () => refusals++ });
    }
    // Past the first bucket, into its refills, with both workers turned away now and then.
    await waitFor(() => callsMade() >= 6 && refusals >= 2, { timeoutMs: 20_000, message: 'calls past the first bucket' });
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    const elapsedMs = Date.now() - started;
    const calls = callsMade();
    expect(calls).toBeLessThanOrEqual(burst + Math.floor((elapsedMs * ratePerMinute) / 60_000));
    // Every call is counted on its job (one stopped mid-call goes back to the queue); the others
    // wait their turn: none failed, none lost.
    const { rows } = await db.pool.query<{ status: string; attempts: number }>('SELECT status, attempts FROM enrichment_jobs WHERE job_id = ANY($1::uuid[])', [
      leads.map((lead) => lead.jobId),
    ]);
    expect(rows.every((row) => row.status === 'done' || row.status === 'queued')).toBe(true);
    expect(rows.reduce((sum, row) => sum + row.attempts, 0)).toBe(calls);
    expect(rows.filter((row) => row.status === 'queued' && row.attempts === 0).length).toBeGreaterThanOrEqual(20 - calls);
    const { rows: bucket } = await db.pool.query<{ tokens: number }>(`SELECT tokens FROM enrichment_rate_limits WHERE provider = 'http-limited'`);
    expect(bucket[0]!.tokens).toBeGreaterThanOrEqual(0);
    await db.pool.query('DELETE FROM enrichment_jobs WHERE job_id = ANY($1::uuid[])', [leads.map((lead) => lead.jobId)]);
  });
});

describe('with ENRICHMENT_PROVIDER=off', () => {
  it('only ends jobs at their deadline, and calls nobody', async () => {
    const expired = await identifiedLead('expired@analytical.example', { deadlineInMs: -1_000 });
    const waiting = await identifiedLead('waiting@analytical.example');
    startWorker({ provider: null });
    expect(await outcomeOf(expired)).toMatchObject({ type: 'EnrichmentFailed', data: { reason: 'deadline', provider: 'default', attempts: 0 } });
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    expect(await jobOf(waiting)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await outcomesOf(waiting)).toEqual([]);
    expect(provider.requestsFor(expired.email)).toEqual([]);
    await db.pool.query('DELETE FROM enrichment_jobs WHERE job_id = $1', [waiting.jobId]);
  });
});

describe('with Hunter as the provider', () => {
  it('retries its rate limit (403) and records the details it documents', async () => {
    const email = 'grace@compilers.example';
    hunter.script(email, ['rate_limited', 'found']);
    const lead = await identifiedLead(email);
    startWorker({ provider: createHunterEnrichmentProvider({ apiKey: hunterTestKey, baseUrl: hunter.baseUrl }) });
    expect(await outcomeOf(lead)).toMatchObject({
      type: 'LeadEnriched',
      data: { provider: 'hunter', details: { name: 'Grace Hopper', title: 'Rear Admiral of Code', company: 'Compilers Inc', size: '51-250' } },
    });
    expect(hunter.requestsFor(email).map((request) => request.step)).toEqual(['rate_limited', 'found']);
  });

  it('a 451 (the person asked not to be processed) ends as not found, with nothing recorded of them', async () => {
    const email = 'private@compilers.example';
    hunter.script(email, ['claimed']);
    const lead = await identifiedLead(email);
    startWorker({ provider: createHunterEnrichmentProvider({ apiKey: hunterTestKey, baseUrl: hunter.baseUrl }) });
    const outcome = await outcomeOf(lead);
    expect(outcome).toMatchObject({ type: 'EnrichmentFailed', data: { reason: 'not_found', provider: 'hunter' } });
    expect((outcome.data as EnrichmentFailedData).detail).toMatch(/451/);
  });
});
