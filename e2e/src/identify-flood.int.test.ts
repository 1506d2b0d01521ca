// The load test of issue 27, item 4 ("Done when"), as a correctness test: one address floods identify
// on website A, past the ingest limit and A's monthly resolution cap, while website B's genuine
// visitors identify. Everything is real: ingest through app.inject() on the real Postgres, the leads
// and enrichment-queue projections caught up from the log, and the enrichment worker calling a signed
// provider on loopback at a shared rate. Asserted: A's flood is cut at the address limit and A's
// billed resolutions stop at its cap; B's leads are enriched in the first rounds of the worker, not
// behind A's queue. Nothing asserts how long anything took (bench:leads -- --flood measures that).
import { randomBytes, randomUUID } from 'node:crypto';
import { grantAll, optionalPurposes, type OptionalPurpose } from '@consentry/events';
import { projectionCheckpointName, readCheckpoint, readCommittedEvents } from '@consentry/infra';
import { createTestDatabase, waitFor, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { addTestOwner, addTestWebsite, buildTestIngest, consentBodyFor, type TestIngest, type TestWebsite } from '@consentry/ingest/testing';
import { applyProjectionBatch, countResolutionsInMonth, enrichmentQueueProjection, leadsProjection, type Projection } from '@consentry/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpEnrichmentProvider } from '@consentry/jobs';
import { TestProvider } from '@consentry/jobs/testing';
import { startEnrichmentWorker, type EnrichmentOutcomeReport } from '@consentry/jobs';

const allPurposes: OptionalPurpose[] = [...optionalPurposes];
const origin = 'https://www.shop.example.test';
/** The ingest limit in this test: what one address may identify in a minute. */
const perIpPerMinute = 60;
/** Website A's monthly resolution cap. */
const capOfA = 40;

let db: TestDatabase;
let ingest: TestIngest;
const provider = new TestProvider();
let siteA: TestWebsite;
let siteB: TestWebsite;

beforeAll(async () => {
  db = await createTestDatabase('identify_flood', { poolSize: 12 });
  ingest = await buildTestIngest(db.pool, { identifyRateLimits: { perIpPerMinute, perWebsitePerMinute: 10_000 } });
  await provider.start();
  const owner = await addTestOwner(db.pool, { tier: 'basic' });
  const otherOwner = await addTestOwner(db.pool, { tier: 'basic' });
  siteA = await addTestWebsite(db.pool, { ownerId: owner.id, settings: { purposes: allPurposes, monthlyResolutionCap: capOfA } });
  siteB = await addTestWebsite(db.pool, { ownerId: otherOwner.id, settings: { purposes: allPurposes } });
});
afterAll(async () => {
  await ingest?.close();
  await provider.close();
  await db?.drop();
});

function post(url: string, body: unknown, ip: string) {
  return ingest.app.inject({ method: 'POST', url, headers: { 'content-type': 'text/plain;charset=UTF-8', origin, 'x-forwarded-for': ip }, payload: JSON.stringify(body) });
}

/** A visitor's Accept All and then their identification, as the widget sends them; the identify answer's status. */
async function consentAndIdentify(website: TestWebsite, ip: string, email: string): Promise<number> {
  const consent = consentBodyFor(website, { choice: undefined, offered: allPurposes, purposes: grantAll(allPurposes), method: 'accept_all' });
  expect((await post('/api/collect/consent', consent, ip)).statusCode).toBe(201);
  const identify = await post(
    '/api/collect/identify',
    {
      embedCode: website.embedCode,
      visitorId: consent.visitorId,
      consentEventId: consent.eventId,
      eventId: randomUUID(),
      source: 'form',
      email,
      name: null,
      company: null,
      pageUrl: `${origin}/contact`,
      occurredAt: new Date().toISOString(),
    },
    ip,
  );
  return identify.statusCode;
}

/** Brings a projection to the end of the log, as its projector does. */
async function catchUp(projection: Projection): Promise<void> {
  await waitForLogVisible(db.pool);
  const client = await db.pool.connect();
  try {
    for (;;) {
      const events = await readCommittedEvents(client, await readCheckpoint(client, projectionCheckpointName(projection.name)), { limit: 500, types: projection.canHandle });
      if (events.length === 0) break;
      await applyProjectionBatch(client, projection, events);
    }
  } finally {
    client.release();
  }
}

/** Waits for a new minute unless 20 s of this one are left, so the flood falls in one rate-limit window. */
async function startOfAMinute(): Promise<void> {
  const { rows } = await db.pool.query<{ left: number }>(`SELECT extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now())::float8 AS left`);
  if (rows[0]!.left < 20) await new Promise((resolve) => setTimeout(resolve, rows[0]!.left * 1000 + 200));
}

const thisMonth = () => `${new Date().toISOString().slice(0, 7)}-01`;

describe('when one address floods identify on website A while B’s visitors identify', () => {
  const statuses: number[] = [];
  const outcomes: EnrichmentOutcomeReport[] = [];

  beforeAll(async () => {
    // 150 consent and identify pairs from one address, each a different made-up person, within one
    // rate-limit minute: the address limit lets 60 through to the cap, which admits 40.
    await startOfAMinute();
    for (let n = 0; n < 150; n++) statuses.push(await consentAndIdentify(siteA, '198.51.100.66', `forged.${n}.${randomBytes(3).toString('hex')}@example.com`));
    await catchUp(leadsProjection);
    await catchUp(enrichmentQueueProjection);
    // Then B's three genuine visitors, each from their own address; the reactor queues them last.
    for (let n = 0; n < 3; n++) expect(await consentAndIdentify(siteB, `203.0.113.${10 + n}`, `genuine.${n}@customer.example`)).toBe(201);
    await catchUp(leadsProjection);
    await catchUp(enrichmentQueueProjection);
  }, 120_000);

  it('lets the address through only to its limit, and A’s new people only to A’s cap', () => {
    expect(statuses.filter((status) => status === 201)).toHaveLength(capOfA);
    expect(statuses.filter((status) => status === 403)).toHaveLength(perIpPerMinute - capOfA);
    expect(statuses.filter((status) => status === 429)).toHaveLength(150 - perIpPerMinute);
  });

  it('bills A no more resolutions than its cap', async () => {
    expect(await countResolutionsInMonth(db.pool, [siteA.id], thisMonth())).toBe(capOfA);
  });

  it('enriches B’s leads in the worker’s first rounds, not behind A’s queue', async () => {
    const queued = await db.pool.query<{ website_id: string; count: number }>(`SELECT website_id, count(*)::int AS count FROM enrichment_jobs WHERE status = 'queued' GROUP BY website_id`);
    expect(Object.fromEntries(queued.rows.map((row) => [row.website_id, row.count]))).toEqual({ [siteA.id]: capOfA, [siteB.id]: 3 });
    // One call at a time, as a provider budget shared by everyone allows.
    const worker = startEnrichmentWorker({
      pool: db.pool,
      workerId: 'flood-test',
      provider: createHttpEnrichmentProvider({ url: provider.url, secret: provider.secret, name: 'http' }),
      ratePerMinute: 60_000,
      concurrency: 1,
      pollMs: 10,
      onOutcome: (report) => outcomes.push(report),
    });
    try {
      await waitFor(() => (outcomes.filter((outcome) => outcome.websiteId === siteB.id && outcome.outcome === 'enriched').length === 3 ? true : null), {
        timeoutMs: 60_000,
        message: 'B’s three leads enriched',
      });
    } finally {
      await worker.stop();
    }
    // Round robin: B's three jobs take every other turn from the start (FIFO gave them turns 41–43).
    const turnsOfB = outcomes.flatMap((outcome, turn) => (outcome.websiteId === siteB.id ? [turn + 1] : []));
    expect(turnsOfB).toHaveLength(3);
    expect(Math.max(...turnsOfB)).toBeLessThanOrEqual(6);
  });
});
