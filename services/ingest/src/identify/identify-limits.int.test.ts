// Identification that one stranger cannot turn into leads by the hundred (issue 27, item 4;
// docs/identification.md, "Limits"), through app.inject() against the real Postgres: identify rate
// limits per visitor address and per website, held across two ingest apps on one database (two
// processes); and the owner's monthly resolution cap, which refuses new people once reached (exactly,
// under parallel requests in two processes) while people already resolved this month still identify.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentStreamId, grantAll, optionalPurposes, type OptionalPurpose } from '@consentry/events';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { addTestOwner, addTestWebsite, buildTestIngest, consentBodyFor, type TestIngest, type TestWebsite } from '../testing/ingest-app';

const allPurposes: OptionalPurpose[] = [...optionalPurposes];
const origin = 'https://www.shop.example.test';

let db: TestDatabase;
/** Two ingest processes on one database, 3 identifications a minute per address, 8 per website. */
let first: TestIngest;
let second: TestIngest;
/** Limits that never bind, for the cap's tests. */
let open: TestIngest;
let ownerId: string;

beforeAll(async () => {
  db = await createTestDatabase('identify_limits', { poolSize: 16 });
  const identifyRateLimits = { perIpPerMinute: 3, perWebsitePerMinute: 8 };
  [first, second, open] = await Promise.all([buildTestIngest(db.pool, { identifyRateLimits }), buildTestIngest(db.pool, { identifyRateLimits }), buildTestIngest(db.pool)]);
  ownerId = (await addTestOwner(db.pool, { tier: 'basic' })).id;
});
afterAll(async () => {
  await Promise.all([first?.close(), second?.close(), open?.close()]);
  await db?.drop();
});

const newSite = (settings: { monthlyResolutionCap?: number } = {}) => addTestWebsite(db.pool, { ownerId, settings: { purposes: allPurposes, ...settings } });
const uniqueEmail = () => `lead.${randomBytes(6).toString('hex')}@example.com`;

function post(ingest: TestIngest, url: string, body: unknown, ip: string) {
  return ingest.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin, 'x-forwarded-for': ip },
    payload: JSON.stringify(body),
  });
}

/** A visitor who accepted everything (through the open app, so consents spend no identify budget). */
async function consentingVisitor(website: TestWebsite, ip: string): Promise<{ visitorId: string; consentEventId: string }> {
  const body = consentBodyFor(website, { choice: undefined, offered: allPurposes, purposes: grantAll(allPurposes), method: 'accept_all' });
  const response = await post(open, '/api/collect/consent', body, ip);
  expect(response.statusCode, response.body).toBe(201);
  return { visitorId: body.visitorId as string, consentEventId: body.eventId as string };
}

async function identify(ingest: TestIngest, website: TestWebsite, ip: string, options: { email?: string; visitor?: { visitorId: string; consentEventId: string } } = {}) {
  const visitor = options.visitor ?? (await consentingVisitor(website, ip));
  const body = {
    embedCode: website.embedCode,
    visitorId: visitor.visitorId,
    consentEventId: visitor.consentEventId,
    eventId: randomUUID(),
    source: 'form',
    email: options.email ?? uniqueEmail(),
    name: null,
    company: null,
    pageUrl: `${origin}/contact`,
    occurredAt: new Date().toISOString(),
  };
  const response = await post(ingest, '/api/collect/identify', body, ip);
  return { response, visitor, body };
}

const identifiedCount = async (website: TestWebsite) =>
  (
    await db.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM events WHERE type = 'VisitorIdentified' AND data->>'websiteId' = $1`, [
      website.id,
    ])
  ).rows[0]!.count;

/** Runs `work` early in a minute, so a test's requests all fall in one rate-limit window. */
async function inOneWindow<T>(work: () => Promise<T>): Promise<T> {
  const { rows } = await db.pool.query<{ left: number }>(`SELECT extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now())::float8 AS left`);
  if (rows[0]!.left < 15) await new Promise((resolve) => setTimeout(resolve, rows[0]!.left * 1000 + 200));
  return work();
}

describe('when one address floods identify', () => {
  it('answers 429 past the per-address limit, counted across processes, with Retry-After', async () => {
    const site = await newSite();
    const ip = '198.51.100.7';
    await inOneWindow(async () => {
      const answers = [];
      // Two processes, alternately: each alone has seen at most two.
      for (const ingest of [first, second, first, second, first]) answers.push((await identify(ingest, site, ip)).response);
      expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 429, 429]);
      expect(answers[3]!.json()).toEqual({ error: { code: 'IDENTIFY_RATE_LIMITED', message: 'Too many identifications from this address; at most 3 a minute' } });
      expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(answers[3]!.headers['retry-after'])).toBeLessThanOrEqual(60);
      // Another address is not held back.
      expect((await identify(second, site, '198.51.100.8')).response.statusCode).toBe(201);
    });
    expect(await identifiedCount(site)).toBe(4);
  });
});

describe('when many addresses identify on one website', () => {
  it('answers 429 past the per-website limit, and requests an address limit refused spend none of it', async () => {
    const site = await newSite();
    const other = await newSite();
    await inOneWindow(async () => {
      // One address sends 10: 3 pass, and its 7 refusals do not count against the website.
      const flood = [];
      for (let n = 0; n < 10; n++) flood.push((await identify(n % 2 ? first : second, site, '203.0.113.50')).response.statusCode);
      expect(flood.filter((status) => status === 201)).toHaveLength(3);
      // Five genuine visitors from their own addresses: the website's 8 are reached with the last.
      const genuine = [];
      for (let n = 1; n <= 6; n++) genuine.push((await identify(n % 2 ? first : second, site, `203.0.113.${n}`)).response);
      expect(genuine.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201, 201, 429]);
      expect(genuine[5]!.json()).toEqual({ error: { code: 'IDENTIFY_RATE_LIMITED', message: 'Too many identifications on this website right now; try again in a minute' } });
      // Another website has its own budget.
      expect((await identify(first, other, '203.0.113.9')).response.statusCode).toBe(201);
    });
    expect(await identifiedCount(site)).toBe(8);
  });
});

describe('when a website reaches its monthly resolution cap', () => {
  it('refuses new people with RESOLUTION_CAP_REACHED, storing nothing, and still identifies people resolved this month', async () => {
    const site = await newSite({ monthlyResolutionCap: 3 });
    const resolved = [];
    for (let n = 0; n < 3; n++) {
      const { response, visitor, body } = await identify(open, site, `192.0.2.${n}`);
      expect(response.statusCode, response.body).toBe(201);
      resolved.push({ visitor, email: body.email });
    }
    const refused = await identify(open, site, '192.0.2.10');
    expect(refused.response.statusCode).toBe(403);
    expect(refused.response.json()).toEqual({
      error: {
        code: 'RESOLUTION_CAP_REACHED',
        message: "This website has reached its owner's monthly limit of identified visitors; visitors already identified this month still are",
      },
    });
    const { rows } = await db.pool.query(`SELECT 1 FROM events WHERE stream_id = $1 AND type = 'VisitorIdentified'`, [consentStreamId(site.id, refused.visitor.visitorId)]);
    expect(rows).toEqual([]);

    // The same visitor again (another form), and the same person from another browser.
    expect((await identify(open, site, '192.0.2.0', { visitor: resolved[0]!.visitor, email: uniqueEmail() })).response.statusCode).toBe(201);
    expect((await identify(open, site, '192.0.2.20', { email: resolved[1]!.email })).response.statusCode).toBe(201);
    expect(await identifiedCount(site)).toBe(5);
  });

  it('admits exactly the cap when new people arrive at once in two processes', async () => {
    const site = await newSite({ monthlyResolutionCap: 5 });
    const visitors = await Promise.all(Array.from({ length: 24 }, (_, n) => consentingVisitor(site, `192.0.2.${100 + n}`)));
    const [a, b] = await Promise.all([buildTestIngest(db.pool), buildTestIngest(db.pool)]);
    try {
      const answers = await Promise.all(visitors.map((visitor, n) => identify(n % 2 ? a : b, site, `192.0.2.${100 + n}`, { visitor })));
      const statuses = answers.map(({ response }) => response.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(5);
      expect(statuses.filter((status) => status === 403)).toHaveLength(19);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    expect(await identifiedCount(site)).toBe(5);
  });

  it('counts people on a website without a cap too, so a cap set mid-month applies to the month', async () => {
    const site = await newSite();
    for (let n = 0; n < 4; n++) expect((await identify(open, site, `192.0.2.${200 + n}`)).response.statusCode).toBe(201);
    const { rows } = await db.pool.query<{ people: number }>('SELECT people FROM resolution_tallies WHERE website_id = $1', [site.id]);
    expect(rows).toEqual([{ people: 4 }]);
  });
});
