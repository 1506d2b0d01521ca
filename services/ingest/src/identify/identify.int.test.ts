// Consent-based identification at the edge (docs/identification.md), through app.inject() against the
// real Postgres: a visitor is identified only on the strength of their own latest choice allowing it;
// every other request is refused with nothing of it stored anywhere in the database or written to the
// log. And at consent time, the B2B company match from the visitor's network.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentStreamId, grantAll, optionalPurposes, type GrantedPurposes, type OptionalPurpose } from '@consentry/events';
import { checkIdentificationAllowed, latestChoiceSql } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { asnDatabaseDirectory, classifyNetwork, createNetworkLookup, forEachAsnRow, ipv4ToNumber, type AsnRow } from '../enrich/network';
import { truncateIp } from '../enrich/ip-address';
import { addTestOwner, addTestWebsite, buildTestIngest, consentBodyFor, findTextAnywhere, type TestIngest, type TestWebsite } from '../testing/ingest-app';
import { companyMatchedEventId } from './company-match';

const allPurposes: OptionalPurpose[] = [...optionalPurposes];
const withIdentification = { purposes: allPurposes };
const origin = 'https://www.shop.example.test';

let db: TestDatabase;
let ingest: TestIngest;
let scriptDirectory: string;
/** Everything the app logged, at every level. */
let logged = '';
let proOwner: { id: string };
let site: TestWebsite;
let plainSite: TestWebsite;

beforeAll(async () => {
  db = await createTestDatabase('identify', { poolSize: 12 });
  scriptDirectory = await mkdtemp(path.join(os.tmpdir(), 'consentry-widget-'));
  await writeFile(path.join(scriptDirectory, 'widget.js'), '/* widget */');
  await writeFile(path.join(scriptDirectory, 'identify.js'), '/* identify */');
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString('utf8');
      done();
    },
  });
  ingest = await buildTestIngest(db.pool, { widgetScriptPath: path.join(scriptDirectory, 'widget.js'), logger: { level: 'trace', stream } });
  proOwner = await addTestOwner(db.pool, { tier: 'pro' });
  site = await addTestWebsite(db.pool, { ownerId: proOwner.id, settings: withIdentification });
  plainSite = await addTestWebsite(db.pool, { ownerId: proOwner.id });
});
afterAll(async () => {
  await ingest?.close();
  await db?.drop();
});

const uniqueEmail = () => `ada.${randomBytes(6).toString('hex')}@example.com`;

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return ingest.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin, ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A choice on the banner of `website`, which offers every purpose (identification included). */
function choiceBody(website: TestWebsite, visitorId: string, purposes: GrantedPurposes, method: string, overrides: Record<string, unknown> = {}) {
  return consentBodyFor(website, {
    visitorId,
    choice: undefined,
    offered: allPurposes,
    purposes,
    method,
    source: method === 'jurisdiction_default' ? 'jurisdiction' : 'banner',
    ...overrides,
  });
}

async function choose(website: TestWebsite, visitorId: string, purposes: GrantedPurposes, method: string, headers: Record<string, string> = {}) {
  const body = choiceBody(website, visitorId, purposes, method);
  const response = await post('/api/collect/consent', body, headers);
  expect(response.statusCode, response.body).toBe(201);
  return body.eventId;
}

const grantEverything = (website: TestWebsite, visitorId: string, headers?: Record<string, string>) =>
  choose(website, visitorId, grantAll(allPurposes), 'accept_all', headers);

function identifyBodyFor(website: TestWebsite, visitorId: string, consentEventId: string, overrides: Record<string, unknown> = {}) {
  return {
    embedCode: website.embedCode,
    visitorId,
    consentEventId,
    eventId: randomUUID(),
    source: 'form',
    email: uniqueEmail(),
    name: 'Ada Lovelace',
    company: 'Analytical Engines Ltd',
    pageUrl: `${origin}/contact`,
    occurredAt: new Date().toISOString(),
    ...overrides,
  };
}

async function storedEvents(streamId: string, type: string) {
  const { rows } = await db.pool.query<{ event_id: string; data: Record<string, unknown> }>(
    'SELECT event_id, data FROM events WHERE stream_id = $1 AND type = $2 ORDER BY position',
    [streamId, type],
  );
  return rows;
}

describe('when the visitor allowed identification', () => {
  it('records who they said they are, normalised, on their consent stream, and answers 201', async () => {
    const visitorId = randomUUID();
    const consentEventId = await grantEverything(site, visitorId);
    const email = uniqueEmail();
    const body = identifyBodyFor(site, visitorId, consentEventId, { email: `  ${email.toUpperCase()} `, name: '  Ada  ', company: '   ' });
    const response = await post('/api/collect/identify', body);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ eventId: body.eventId });
    expect(response.headers['access-control-allow-origin']).toBe(origin);
    const [event] = await storedEvents(consentStreamId(site.id, visitorId), 'VisitorIdentified');
    expect(event).toEqual({
      event_id: body.eventId,
      data: {
        websiteId: site.id,
        visitorId,
        source: 'form',
        email,
        name: 'Ada',
        company: null,
        pageUrl: `${origin}/contact`,
        consentEventId,
        occurredAt: body.occurredAt,
        receivedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    });
  });

  it('stores a retried identification once', async () => {
    const visitorId = randomUUID();
    const body = identifyBodyFor(site, visitorId, await grantEverything(site, visitorId), { source: 'call', pageUrl: null });
    const answers = [await post('/api/collect/identify', body), await post('/api/collect/identify', body)];
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201]);
    expect(answers.map((answer) => answer.json())).toEqual([{ eventId: body.eventId }, { eventId: body.eventId }]);
    expect(await storedEvents(consentStreamId(site.id, visitorId), 'VisitorIdentified')).toHaveLength(1);
    expect((await findTextAnywhere(db.pool, body.email)).map((found) => found.table)).toEqual(['public.events']);
  });

  it('takes a custom choice with identification switched on', async () => {
    const visitorId = randomUUID();
    const consentEventId = await choose(site, visitorId, { ...grantAll([]), identification: true }, 'custom');
    expect((await post('/api/collect/identify', identifyBodyFor(site, visitorId, consentEventId))).statusCode).toBe(201);
  });
});

describe('when identification is not allowed, nothing of the request is kept', () => {
  const refusals: Array<[string, () => Promise<{ website: TestWebsite; visitorId: string; consentEventId: string }>]> = [
    ['the visitor made no choice', async () => ({ website: site, visitorId: randomUUID(), consentEventId: randomUUID() })],
    [
      'the visitor declined everything',
      async () => {
        const visitorId = randomUUID();
        return { website: site, visitorId, consentEventId: await choose(site, visitorId, grantAll([]), 'reject_all') };
      },
    ],
    [
      'the visitor accepted only the other purposes',
      async () => {
        const visitorId = randomUUID();
        return { website: site, visitorId, consentEventId: await choose(site, visitorId, grantAll(['preferences', 'analytics', 'marketing']), 'custom') };
      },
    ],
    [
      'the visitor withdrew identification after granting it (naming the grant)',
      async () => {
        const visitorId = randomUUID();
        const granted = await grantEverything(site, visitorId);
        await choose(site, visitorId, grantAll(['analytics']), 'custom');
        return { website: site, visitorId, consentEventId: granted };
      },
    ],
    [
      'the visitor withdrew identification after granting it (naming the withdrawal)',
      async () => {
        const visitorId = randomUUID();
        await grantEverything(site, visitorId);
        return { website: site, visitorId, consentEventId: await choose(site, visitorId, grantAll(['analytics']), 'custom') };
      },
    ],
    [
      'the visitor rejected everything afterwards on a widget 1 banner (naming the grant)',
      async () => {
        const visitorId = randomUUID();
        const granted = await grantEverything(site, visitorId);
        const decline = await post('/api/collect/consent', consentBodyFor(site, { visitorId, choice: 'declined', source: 'banner' }));
        expect(decline.statusCode, decline.body).toBe(201);
        return { website: site, visitorId, consentEventId: granted };
      },
    ],
    [
      'the visitor rejected everything afterwards on a banner that did not offer identification (naming the grant)',
      async () => {
        const visitorId = randomUUID();
        const granted = await grantEverything(site, visitorId);
        const body = choiceBody(site, visitorId, grantAll([]), 'reject_all', { offered: ['analytics', 'marketing'] });
        const decline = await post('/api/collect/consent', body);
        expect(decline.statusCode, decline.body).toBe(201);
        return { website: site, visitorId, consentEventId: granted };
      },
    ],
    [
      'the visitor accepted afterwards on a banner that did not offer identification (naming the grant)',
      async () => {
        const visitorId = randomUUID();
        const granted = await grantEverything(site, visitorId);
        const body = choiceBody(site, visitorId, grantAll(['analytics']), 'accept_all', { offered: ['analytics'] });
        const accept = await post('/api/collect/consent', body);
        expect(accept.statusCode, accept.body).toBe(201);
        return { website: site, visitorId, consentEventId: granted };
      },
    ],
    [
      "an opt-out region's default granted every purpose",
      async () => {
        const visitorId = randomUUID();
        return { website: site, visitorId, consentEventId: await choose(site, visitorId, grantAll(allPurposes), 'jurisdiction_default') };
      },
    ],
    [
      'the consent is another visitor’s',
      async () => {
        const other = await grantEverything(site, randomUUID());
        return { website: site, visitorId: randomUUID(), consentEventId: other };
      },
    ],
    [
      'the consent is another visitor’s, and this visitor has a grant of their own',
      async () => {
        const other = await grantEverything(site, randomUUID());
        const visitorId = randomUUID();
        await grantEverything(site, visitorId);
        return { website: site, visitorId, consentEventId: other };
      },
    ],
    [
      'the consent event is unknown',
      async () => {
        const visitorId = randomUUID();
        await grantEverything(site, visitorId);
        return { website: site, visitorId, consentEventId: randomUUID() };
      },
    ],
    [
      'the website does not offer identification',
      async () => {
        const visitorId = randomUUID();
        // The visitor's (or a forged) choice claims identification; the website does not offer it.
        return { website: plainSite, visitorId, consentEventId: await grantEverything(plainSite, visitorId) };
      },
    ],
  ];

  it.each(refusals)('when %s: 403 IDENTIFICATION_NOT_ALLOWED, and the email is in no table', async (_case, given) => {
    const { website, visitorId, consentEventId } = await given();
    const body = identifyBodyFor(website, visitorId, consentEventId, { name: `Grace ${randomBytes(4).toString('hex')}` });
    const response = await post('/api/collect/identify', body);
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'IDENTIFICATION_NOT_ALLOWED' } });
    expect(response.json().error.message).not.toContain(body.email);
    expect(await findTextAnywhere(db.pool, body.email)).toEqual([]);
    expect(await findTextAnywhere(db.pool, body.name)).toEqual([]);
    expect(await storedEvents(consentStreamId(website.id, visitorId), 'VisitorIdentified')).toEqual([]);
  });

  it('refuses a malformed email with a 400 naming the field, and keeps nothing', async () => {
    const visitorId = randomUUID();
    const consentEventId = await grantEverything(site, visitorId);
    for (const email of ['ada-at-example.com', 'ada@localhost', 'ada @example.com', `${'a'.repeat(65)}@example.com`, '']) {
      const response = await post('/api/collect/identify', identifyBodyFor(site, visitorId, consentEventId, { email }));
      expect(response.statusCode, email).toBe(400);
      expect(response.json().error.message, email).toMatch(/email: Expected an email address/);
      if (email) expect(response.json().error.message).not.toContain(email);
    }
    expect(await storedEvents(consentStreamId(site.id, visitorId), 'VisitorIdentified')).toEqual([]);
  });

  it.each([
    ['a name over 200 characters', { name: 'n'.repeat(201) }],
    ['a company over 200 characters', { company: 'c'.repeat(201) }],
    ['a page URL over 2048 characters', { pageUrl: `${origin}/${'p'.repeat(2048)}` }],
    ['an unknown source', { source: 'scraped' }],
    ['a consent event id that is not a UUID', { consentEventId: 'latest' }],
    ['an unknown field', { ipAddress: '203.0.113.9' }],
  ])('refuses %s with a 400', async (_case, change) => {
    const visitorId = randomUUID();
    const body = identifyBodyFor(site, visitorId, await grantEverything(site, visitorId), change);
    const response = await post('/api/collect/identify', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    expect(await findTextAnywhere(db.pool, body.email)).toEqual([]);
  });

  it('answers the website checks like the other collection endpoints', async () => {
    const visitorId = randomUUID();
    const body = identifyBodyFor(site, visitorId, await grantEverything(site, visitorId));
    expect((await post('/api/collect/identify', body, { origin: 'https://evil.example.com' })).json()).toMatchObject({ error: { code: 'ORIGIN_NOT_ALLOWED' } });
    expect((await post('/api/collect/identify', { ...body, embedCode: 'unknownCode123' })).statusCode).toBe(404);
    expect((await post('/api/collect/identify', { ...body, pageUrl: 'x'.repeat(5000) })).statusCode).toBe(413);
    expect(await findTextAnywhere(db.pool, body.email)).toEqual([]);
  });

  it('a fuzzed identify endpoint never answers 5xx and never stores what it refused', async () => {
    const visitorId = randomUUID();
    const valid = identifyBodyFor(site, visitorId, await grantEverything(site, visitorId));
    const anyJson = fc.jsonValue({ maxDepth: 3 });
    const mutated = fc.record(
      Object.fromEntries(Object.keys(valid).map((key) => [key, fc.oneof(fc.constant((valid as Record<string, unknown>)[key]), anyJson, fc.string({ maxLength: 400 }))])),
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(mutated.map((body) => JSON.stringify(body)), fc.string({ maxLength: 5000 })), async (payload) => {
        const response = await post('/api/collect/identify', payload);
        expect(response.statusCode, payload.slice(0, 200)).toBeLessThan(500);
      }),
      { numRuns: 200 },
    );
  });

  it('never writes an email to the log, whatever the answer', async () => {
    const visitorId = randomUUID();
    const consentEventId = await grantEverything(site, visitorId);
    const sent = [
      identifyBodyFor(site, visitorId, consentEventId),
      identifyBodyFor(site, visitorId, randomUUID()),
      identifyBodyFor(plainSite, visitorId, consentEventId),
      identifyBodyFor(site, visitorId, consentEventId, { email: `not an address ${randomBytes(4).toString('hex')}` }),
      identifyBodyFor(site, visitorId, consentEventId, { unknownField: true }),
    ];
    const statuses = [];
    for (const body of sent) statuses.push((await post('/api/collect/identify', body)).statusCode);
    expect(statuses).toEqual([201, 403, 403, 400, 400]);
    // The capture works: a request on a route that logs at info level is there.
    await ingest.app.inject({ method: 'GET', url: `/api/widget/rule/${site.embedCode}` });
    expect(logged).toContain(`/api/widget/rule/${site.embedCode}`);
    for (const body of sent) expect(logged).not.toContain(body.email);
    // Nor any other request's (earlier tests, the fuzz).
    expect([...logged.matchAll(/[a-z0-9.]+@example\.com/gi)].map((match) => match[0])).toEqual([]);
  });
});

describe('a withdrawal racing an identification', () => {
  it('never commits an identification after the choice that withdrew it (40 pairs sent at once)', async () => {
    const visitors = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const visitorId = randomUUID();
        return { visitorId, granted: await grantEverything(site, visitorId) };
      }),
    );
    const answers = await Promise.all(
      visitors.map(async ({ visitorId, granted }) => {
        const identify = identifyBodyFor(site, visitorId, granted);
        const [declined, identified] = await Promise.all([
          post('/api/collect/consent', choiceBody(site, visitorId, grantAll([]), 'reject_all')),
          post('/api/collect/identify', identify),
        ]);
        return { visitorId, declined: declined.statusCode, identified: identified.statusCode, identifyEventId: identify.eventId };
      }),
    );
    for (const answer of answers) {
      expect(answer.declined).toBe(201);
      expect([201, 403]).toContain(answer.identified);
    }
    // The log's own order (what every projection and the sealer follow): per visitor, is any
    // identification after their withdrawal?
    const { rows } = await db.pool.query<{ stream_id: string; type: string; event_id: string }>(
      `SELECT stream_id, type, event_id FROM events
        WHERE stream_id = ANY($1::text[]) AND type IN ('ConsentDeclined', 'VisitorIdentified')
        ORDER BY transaction_id, position`,
      [visitors.map(({ visitorId }) => consentStreamId(site.id, visitorId))],
    );
    const withdrawn = new Set<string>();
    const identifiedAfterWithdrawal: string[] = [];
    const stored = new Set<string>();
    for (const row of rows) {
      if (row.type === 'ConsentDeclined') withdrawn.add(row.stream_id);
      else {
        stored.add(row.event_id);
        if (withdrawn.has(row.stream_id)) identifiedAfterWithdrawal.push(row.stream_id);
      }
    }
    expect(identifiedAfterWithdrawal).toEqual([]);
    // Every 201 is in the log (before the withdrawal), every 403 is not.
    for (const answer of answers) expect(stored.has(answer.identifyEventId)).toBe(answer.identified === 201);
  });
});

describe('the check on the log', () => {
  it('names the reason, for the enrichment worker', async () => {
    const visitorId = randomUUID();
    const check = (consentEventId: string) => checkIdentificationAllowed(db.pool, { websiteId: site.id, visitorId, consentEventId });
    expect(await check(randomUUID())).toEqual({ allowed: false, reason: 'no_choice' });
    const first = await grantEverything(site, visitorId);
    expect(await check(first.toUpperCase())).toEqual({ allowed: true, consentEventId: first });
    const second = await grantEverything(site, visitorId);
    expect(await check(first)).toEqual({ allowed: false, reason: 'not_latest_choice' });
    expect(await check(second)).toEqual({ allowed: true, consentEventId: second });
    const withdrawn = await choose(site, visitorId, grantAll(['marketing']), 'custom');
    expect(await check(withdrawn)).toEqual({ allowed: false, reason: 'not_allowed' });
    expect(await check(second)).toEqual({ allowed: false, reason: 'not_allowed' });
    // Allowed again, then a widget 1 decline (a banner that never offered identification) withdraws it.
    const third = await grantEverything(site, visitorId);
    expect(await check(third)).toEqual({ allowed: true, consentEventId: third });
    const decline = await post('/api/collect/consent', consentBodyFor(site, { visitorId, choice: 'declined', source: 'banner' }));
    expect(decline.statusCode, decline.body).toBe(201);
    expect(await check(third)).toEqual({ allowed: false, reason: 'not_allowed' });
  });

  it('finds the latest choice through the partial index events_consent_choices', async () => {
    // A log with many choices, most on banners without identification, and page views (not in the index).
    const requests = Array.from({ length: 6_000 }, (_, index) => {
      const request = consentAppendRequest({ websiteId: site.id });
      if (index % 10 !== 0 || request.event.type !== 'ConsentGiven') return request;
      return { ...request, event: { ...request.event, data: { ...request.event.data, offered: allPurposes, purposes: grantAll(allPurposes), method: 'accept_all' as const } } };
    });
    await Promise.all(requests.map((request) => ingest.appender.append(request)));
    await db.pool.query('ANALYZE events');
    const { rows } = await db.pool.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${latestChoiceSql}`, [requests[0]!.streamId]);
    const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
    expect(plan).toContain('"Index Name":"events_consent_choices"');
    expect(plan).not.toContain('Seq Scan');
  });
});

describe('the B2B company match at consent time', () => {
  const network = createNetworkLookup();

  /** An address from the shipped database whose network is of `kind`, as the rule classifies it. */
  async function addressOfKind(candidates: string[], kind: string): Promise<{ ip: string; asn: number; organisation: string }> {
    for (const ip of candidates) {
      const owner = await network.lookup(ip);
      if (owner && classifyNetwork(owner.asn, owner.organisation).kind === kind) return { ip, ...owner };
    }
    throw new Error(`none of ${candidates.join(', ')} is a ${kind} network in the shipped database`);
  }

  const companyMatches = async (website: TestWebsite, visitorId: string) => storedEvents(consentStreamId(website.id, visitorId), 'CompanyMatched');

  it('appends CompanyMatched (number and organisation only) for a pro owner’s visitor from a business network, once per consent', async () => {
    const business = await addressOfKind(['17.1.2.3', '144.178.0.10', '3.5.140.2'], 'business');
    const visitorId = randomUUID();
    const body = choiceBody(site, visitorId, grantAll(allPurposes), 'accept_all');
    const headers = { 'x-forwarded-for': business.ip };
    expect((await post('/api/collect/consent', body, headers)).statusCode).toBe(201);
    expect((await post('/api/collect/consent', body, headers)).json()).toMatchObject({ status: 'duplicate' });
    await ingest.idle();
    const matches = await companyMatches(site, visitorId);
    expect(matches).toEqual([
      {
        event_id: companyMatchedEventId(body.eventId),
        data: { websiteId: site.id, visitorId, asn: business.asn, organisation: business.organisation, consentEventId: body.eventId, matchedAt: expect.any(String) },
      },
    ]);
    // It follows the consent on the stream.
    const { rows } = await db.pool.query('SELECT type FROM events WHERE stream_id = $1 ORDER BY position', [consentStreamId(site.id, visitorId)]);
    expect(rows.map((row) => row.type)).toEqual(['ConsentGiven', 'CompanyMatched']);
  });

  it('looks up the full address even when the website stores it minimised, and stores no address', async () => {
    // A business range that starts inside a /24 whose first address belongs to another network (or none).
    const text = await readFile(path.join(asnDatabaseDirectory(), 'asn-ipv4-num.csv'), 'utf8');
    const rows: AsnRow[] = [];
    await forEachAsnRow(text, (row) => rows.push(row));
    let found: { ip: string; asn: number } | undefined;
    for (const row of rows) {
      const start = Number(row.start);
      if (start % 256 === 0 || Number(row.end) - start < 2 || classifyNetwork(row.asn, row.organisation).kind !== 'business') continue;
      const ip = [start >>> 24, (start >>> 16) & 255, (start >>> 8) & 255, (start & 255) + 1].join('.');
      const truncated = await network.lookup(truncateIp(ip));
      if (truncated?.asn === row.asn || ipv4ToNumber(ip) > Number(row.end)) continue;
      found = { ip, asn: row.asn };
      break;
    }
    expect(found, 'a business range that starts inside a /24').toBeDefined();
    const visitorId = randomUUID();
    await grantEverything(site, visitorId, { 'x-forwarded-for': found!.ip });
    await ingest.idle();
    expect((await companyMatches(site, visitorId)).map((match) => match.data.asn)).toEqual([found!.asn]);
    expect(await findTextAnywhere(db.pool, found!.ip)).toEqual([]);
  });

  it.each([
    ['a free owner', { tier: 'free' as const }, 'business'],
    ['a basic owner', { tier: 'basic' as const }, 'business'],
    ['a legacy starter owner (basic)', { tier: 'starter' as const }, 'business'],
    ['a pro owner whose subscription was cancelled', { tier: 'pro' as const, status: 'cancelled' as const }, 'business'],
    ['a pro owner’s visitor from an access provider', { tier: 'pro' as const }, 'access'],
    ['a pro owner’s visitor from a cloud', { tier: 'pro' as const }, 'hosting'],
  ])('appends nothing for %s', async (_case, plan, kind) => {
    const address = await addressOfKind(kind === 'business' ? ['17.1.2.3'] : kind === 'access' ? ['73.1.2.3', '24.0.0.1'] : ['8.8.8.8', '52.95.110.1'], kind);
    const owner = await addTestOwner(db.pool, plan);
    const website = await addTestWebsite(db.pool, { ownerId: owner.id, settings: withIdentification });
    const visitorId = randomUUID();
    await grantEverything(website, visitorId, { 'x-forwarded-for': address.ip });
    await ingest.idle();
    expect(await companyMatches(website, visitorId)).toEqual([]);
  });

  it('matches for legacy professional and enterprise owners (pro and business)', async () => {
    const business = await addressOfKind(['17.1.2.3'], 'business');
    for (const tier of ['professional', 'enterprise', 'business'] as const) {
      const owner = await addTestOwner(db.pool, { tier });
      const website = await addTestWebsite(db.pool, { ownerId: owner.id, settings: withIdentification });
      const visitorId = randomUUID();
      await grantEverything(website, visitorId, { 'x-forwarded-for': business.ip });
      await ingest.idle();
      expect(await companyMatches(website, visitorId), tier).toHaveLength(1);
    }
  });

  it('appends nothing when the choice does not allow identification', async () => {
    const business = await addressOfKind(['17.1.2.3'], 'business');
    const visitorId = randomUUID();
    await choose(site, visitorId, grantAll(['analytics', 'marketing']), 'custom', { 'x-forwarded-for': business.ip });
    await choose(site, visitorId, grantAll(allPurposes), 'jurisdiction_default', { 'x-forwarded-for': business.ip });
    await ingest.idle();
    expect(await companyMatches(site, visitorId)).toEqual([]);
  });

  it('never fails the consent: a lookup that throws is logged and skipped', async () => {
    let brokenLog = '';
    const broken = await buildTestIngest(db.pool, {
      network: createNetworkLookup({ directory: path.join(scriptDirectory, 'no-such-database') }),
      logger: {
        level: 'warn',
        stream: new Writable({
          write(chunk: Buffer, _encoding, done) {
            brokenLog += chunk.toString('utf8');
            done();
          },
        }),
      },
    });
    try {
      const visitorId = randomUUID();
      const body = choiceBody(site, visitorId, grantAll(allPurposes), 'accept_all');
      const response = await broken.app.inject({
        method: 'POST',
        url: '/api/collect/consent',
        headers: { 'content-type': 'text/plain', origin, 'x-forwarded-for': '17.1.2.3' },
        payload: JSON.stringify(body),
      });
      expect(response.statusCode).toBe(201);
      await broken.idle();
      expect(await storedEvents(consentStreamId(site.id, visitorId), 'ConsentGiven')).toHaveLength(1);
      expect(await companyMatches(site, visitorId)).toEqual([]);
      expect(brokenLog).toContain('company match skipped');
      expect(brokenLog).not.toContain('17.1.2.3');
    } finally {
      await broken.close();
    }
  });
});

describe('the widget’s identification assets', () => {
  it('tells the widget which forms identify and where the script is, only when the website offers identification', async () => {
    const config = async (website: TestWebsite) => (await ingest.app.inject({ method: 'GET', url: `/api/widget/config/${website.embedCode}` })).json();
    expect((await config(plainSite)).identification).toBeUndefined();
    const marked = await addTestWebsite(db.pool, { settings: { ...withIdentification, identificationForms: 'marked' } });
    // What the websites read model holds for the setting (it defaults to 'all').
    const { rows } = await db.pool.query('SELECT identification_forms FROM websites WHERE id = $1', [marked.id]);
    expect((await config(marked)).identification).toEqual({ forms: rows[0].identification_forms, script: '/identify.js' });
    expect((await config(site)).identification).toEqual({ forms: 'all', script: '/identify.js' });
  });

  it('serves /identify.js like /widget.js, and a clear 404 when it is not built', async () => {
    const script = await ingest.app.inject({ method: 'GET', url: '/identify.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe('/* identify */');
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect((await ingest.app.inject({ method: 'GET', url: '/identify.js', headers: { 'if-none-match': String(script.headers.etag) } })).statusCode).toBe(304);

    const unbuilt = await buildTestIngest(db.pool, { widgetScriptPath: path.join(scriptDirectory, 'widget.js'), identifyScriptPath: path.join(scriptDirectory, 'missing.js') });
    try {
      const missing = await unbuilt.app.inject({ method: 'GET', url: '/identify.js' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: { code: 'IDENTIFY_SCRIPT_NOT_BUILT', message: 'identify.js is not built: run npm run build -w @consentry/widget' } });
    } finally {
      await unbuilt.close();
    }
  });
});
