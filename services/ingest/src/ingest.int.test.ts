// The ingest service through app.inject() against the real Postgres: what is stored for a good
// request, and that every malformed, oversized or hostile request gets a clear 4xx with nothing
// stored — also under a fast-check fuzz, which must never see a 5xx.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream, createPool, type Db } from '@consentry/infra';
import { createTestDatabase, startTcpProxy, type TestDatabase } from '@consentry/infra/testing';
import { canonicalBannerTexts, englishTexts, shippedTexts } from '@consentry/events';
import { exampleEventData, examplePngDataUrl } from '@consentry/events/examples';
import { scansProjection } from '@consentry/projections';
import { addTestWebsite, buildTestIngest, consentBodyFor, type TestIngest, type TestWebsite } from './testing/ingest-app';

let db: TestDatabase;
let ingest: TestIngest;
let website: TestWebsite;
let inactive: TestWebsite;
const origin = 'https://www.shop.example.test';
const chromeOnAndroid = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

beforeAll(async () => {
  db = await createTestDatabase('ingest', { poolSize: 12 });
  const script = path.join(os.tmpdir(), `widget-${randomUUID()}.js`);
  await writeFile(script, '/* widget */');
  ingest = await buildTestIngest(db.pool, { widgetScriptPath: script });
  website = await addTestWebsite(db.pool, { companyName: 'Shop & Co', logoUrl: examplePngDataUrl });
  inactive = await addTestWebsite(db.pool, { active: false });
});
afterAll(async () => {
  await ingest?.close();
  await db?.drop();
});

async function storedEvents(eventId: string) {
  const { rows } = await db.pool.query('SELECT type, stream_id, data FROM events WHERE event_id = $1', [eventId]);
  return rows as Array<{ type: string; stream_id: string; data: Record<string, unknown> }>;
}

async function eventCount(): Promise<number> {
  const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM events');
  return rows[0].n;
}

function postConsent(body: unknown, headers: Record<string, string> = {}) {
  return ingest.app.inject({
    method: 'POST',
    url: '/api/collect/consent',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin, 'user-agent': chromeOnAndroid, ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('when a visitor accepts on the website', () => {
  it('stores one ConsentGiven with what the server knows, and answers 201 after commit', async () => {
    const body = consentBodyFor(website);
    const response = await postConsent(body, { 'x-forwarded-for': '8.8.8.8' });
    expect(response.statusCode).toBe(201);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe(JSON.stringify({ eventId: body.eventId, status: 'stored' }));
    expect(response.headers['access-control-allow-origin']).toBe(origin);
    const [event] = await storedEvents(body.eventId);
    expect(event).toMatchObject({
      type: 'ConsentGiven',
      stream_id: `consent-${website.id}-${body.visitorId}`,
      data: {
        websiteId: website.id,
        visitorId: body.visitorId,
        source: 'banner',
        ipAddress: '8.8.8.0', // minimised by default
        userAgent: chromeOnAndroid,
        deviceClass: 'mobile',
        country: 'US',
        city: 'Mountain View', // located from the full address before it was truncated
        email: null,
        language: 'en-GB',
      },
    });
    expect(event?.data.receivedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.now() - Date.parse(String(event?.data.receivedAt))).toBeLessThan(60_000);
  });

  it('stores a retry of the same event once and says so', async () => {
    const body = consentBodyFor(website);
    const first = await postConsent(body);
    const again = await postConsent(body);
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.json()).toEqual({ eventId: body.eventId, status: 'duplicate' });
    expect(await storedEvents(body.eventId)).toHaveLength(1);
  });

  it('knows a retry whose event id is written in upper case as the same event', async () => {
    const body = consentBodyFor(website);
    expect((await postConsent(body)).statusCode).toBe(201);
    const again = await postConsent({ ...body, eventId: body.eventId.toUpperCase() });
    expect(again.json()).toEqual({ eventId: body.eventId, status: 'duplicate' });
    expect(await storedEvents(body.eventId)).toHaveLength(1);
  });

  it('keeps the full address when the website says so, and takes application/json too', async () => {
    const full = await addTestWebsite(db.pool, { ipAddressMode: 'full' });
    const body = consentBodyFor(full, { choice: 'declined', source: 'gpc' });
    const response = await postConsent(body, { 'content-type': 'application/json', 'x-forwarded-for': '2001:db8:85a3::8a2e:370:7334' });
    expect(response.statusCode).toBe(201);
    const [event] = await storedEvents(body.eventId);
    expect(event?.type).toBe('ConsentDeclined');
    expect(event?.data).toMatchObject({ ipAddress: '2001:db8:85a3::8a2e:370:7334', source: 'gpc', country: null });
  });

  it('accepts subdomains of the website domain and plain http', async () => {
    for (const allowed of ['https://shop.example.test', 'http://blog.shop.example.test']) {
      const response = await postConsent(consentBodyFor(website), { origin: allowed });
      expect(response.statusCode, allowed).toBe(201);
    }
  });
});

describe('when a visitor chooses purpose by purpose', () => {
  const none = { preferences: false, analytics: false, marketing: false, identification: false };
  const offered = ['preferences', 'analytics', 'marketing'];

  it('records the purposes offered and granted, how, and the rule of the visitor’s region (California: opt-out)', async () => {
    const { choice: _choice, ...body } = consentBodyFor(website);
    const custom = { ...body, offered, purposes: { ...none, analytics: true }, method: 'custom', shownLanguage: 'de', textsHash: 'b'.repeat(64) };
    const response = await postConsent(custom, { 'x-forwarded-for': '8.8.8.8' });
    expect(response.statusCode).toBe(201);
    const [event] = await storedEvents(body.eventId);
    expect(event).toMatchObject({
      type: 'ConsentGiven',
      data: { offered, purposes: { ...none, analytics: true }, method: 'custom', rule: { rule: 'opt_out', region: 'US-CA' }, shownLanguage: 'de', textsHash: 'b'.repeat(64) },
    });
  });

  it('records a choice that grants nothing as a ConsentDeclined', async () => {
    const { choice: _choice, ...body } = consentBodyFor(website);
    const response = await postConsent({ ...body, offered, purposes: none, method: 'reject_all' });
    expect(response.statusCode).toBe(201);
    const [event] = await storedEvents(body.eventId);
    expect([event?.type, event?.data.method]).toEqual(['ConsentDeclined', 'reject_all']);
  });

  it('still reads a cached older widget’s accepted as Accept All over the three purposes its banner had', async () => {
    const body = consentBodyFor(website);
    expect((await postConsent(body)).statusCode).toBe(201);
    const [event] = await storedEvents(body.eventId);
    expect(event?.data).toMatchObject({ offered, purposes: { preferences: true, analytics: true, marketing: true, identification: false }, method: 'accept_all' });
  });

  it.each([
    [{ choice: undefined }, 'purposes: Expected purposes (or, from an older widget, choice)'],
    [{ choice: 'declined', offered, purposes: { ...none, marketing: true }, method: 'custom' }, 'choice: A choice that grants a purpose is accepted'],
    [{ offered: ['analytics'], purposes: { ...none, marketing: true }, method: 'custom' }, 'purposes: Granted but not offered: marketing'],
    [{ purposes: { ...none, analytics: true }, method: 'custom' }, 'offered: Expected the purposes the banner offered'],
  ])('refuses %j with a clear 400 and stores nothing', async (change, message) => {
    const body = { ...consentBodyFor(website), ...change };
    const response = await postConsent(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(message);
    expect(await storedEvents(body.eventId)).toHaveLength(0);
  });
});

describe('when analytics events arrive', () => {
  it('stores impressions anonymously and page views, time on page and engagement with the visitor', async () => {
    const send = (url: string, body: Record<string, unknown>) =>
      ingest.app.inject({ method: 'POST', url, headers: { 'content-type': 'text/plain', origin, 'user-agent': chromeOnAndroid }, payload: JSON.stringify(body) });
    const visitorId = randomUUID();
    const pageviewId = randomUUID();
    const ids = { impression: randomUUID(), pageview: randomUUID(), pagehide: randomUUID(), engagement: randomUUID() };
    const answers = await Promise.all([
      send('/api/collect/impression', { embedCode: website.embedCode, eventId: ids.impression, position: 'top', theme: 'dark' }),
      send('/api/collect/pageview', { embedCode: website.embedCode, eventId: ids.pageview, visitorId, pageviewId, url: `${origin}/menu?x=1`, referrer: 'https://www.google.com/', title: 'Menu' }),
      send('/api/collect/pagehide', { embedCode: website.embedCode, eventId: ids.pagehide, visitorId, pageviewId, visibleMs: 12_345 }),
      send('/api/collect/engagement', { embedCode: website.embedCode, eventId: ids.engagement, visitorId, pageviewId, kind: 'tap_to_call' }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202, 202, 202]);
    expect(answers.map((answer) => answer.body)).toEqual(Array(4).fill('{"status":"stored"}'));
    const [impression] = await storedEvents(ids.impression);
    expect(impression).toMatchObject({ type: 'BannerShown', data: { websiteId: website.id, position: 'top', theme: 'dark', deviceClass: 'mobile' } });
    expect(Object.keys(impression!.data).sort()).toEqual(['deviceClass', 'position', 'receivedAt', 'theme', 'websiteId']);
    expect((await storedEvents(ids.pageview))[0]).toMatchObject({ type: 'PageViewed', data: { path: '/menu', referrer: 'https://www.google.com/', title: 'Menu' } });
    expect((await storedEvents(ids.pagehide))[0]).toMatchObject({ type: 'PageHidden', data: { visibleMs: 12_345 } });
    expect((await storedEvents(ids.engagement))[0]).toMatchObject({ type: 'EngagementRecorded', data: { kind: 'tap_to_call' } });
  });
});

describe('when a request is malformed, oversized or hostile', () => {
  const cases: Array<[string, () => { body: unknown; headers?: Record<string, string> }, number, string]> = [
    ['a foreign origin', () => ({ body: consentBodyFor(website), headers: { origin: 'https://evil.example.com' } }), 403, 'ORIGIN_NOT_ALLOWED'],
    ['a look-alike origin', () => ({ body: consentBodyFor(website), headers: { origin: 'https://notshop.example.test' } }), 403, 'ORIGIN_NOT_ALLOWED'],
    ['an origin with the domain as a prefix', () => ({ body: consentBodyFor(website), headers: { origin: 'https://shop.example.test.evil.com' } }), 403, 'ORIGIN_NOT_ALLOWED'],
    ['no origin at all', () => ({ body: consentBodyFor(website), headers: { origin: '' } }), 403, 'ORIGIN_NOT_ALLOWED'],
    ['a javascript: origin', () => ({ body: consentBodyFor(website), headers: { origin: 'javascript:alert(1)' } }), 403, 'ORIGIN_NOT_ALLOWED'],
    ['an unknown embed code', () => ({ body: consentBodyFor({ ...website, embedCode: 'unknownCode123' }) }), 404, 'UNKNOWN_EMBED_CODE'],
    ['an inactive website', () => ({ body: consentBodyFor(inactive), headers: { origin: 'https://shop.example.test' } }), 403, 'WEBSITE_INACTIVE'],
    ['bad JSON', () => ({ body: '{"embedCode": ' }), 400, 'INVALID_JSON'],
    ['an empty body', () => ({ body: '' }), 400, 'INVALID_JSON'],
    ['a JSON array', () => ({ body: [consentBodyFor(website)] }), 400, 'INVALID_REQUEST'],
    ['a JSON string', () => ({ body: '"accepted"' }), 400, 'INVALID_REQUEST'],
    ['null', () => ({ body: 'null' }), 400, 'INVALID_REQUEST'],
    ['a wrong choice', () => ({ body: consentBodyFor(website, { choice: 'maybe' }) }), 400, 'INVALID_REQUEST'],
    ['a number as visitor id', () => ({ body: consentBodyFor(website, { visitorId: 42 }) }), 400, 'INVALID_REQUEST'],
    ['an event id that is not a UUID', () => ({ body: consentBodyFor(website, { eventId: 'x'.repeat(36) }) }), 400, 'INVALID_REQUEST'],
    ['a missing event id', () => ({ body: { ...consentBodyFor(website), eventId: undefined } }), 400, 'INVALID_REQUEST'],
    ['an unknown field', () => ({ body: consentBodyFor(website, { ipAddress: '1.2.3.4' }) }), 400, 'INVALID_REQUEST'],
    ['a prototype-polluting field', () => ({ body: `{"__proto__": {"admin": true}, ${JSON.stringify(consentBodyFor(website)).slice(1)}` }), 400, 'INVALID_REQUEST'],
    ['a huge visitor id', () => ({ body: consentBodyFor(website, { visitorId: 'v'.repeat(65) }) }), 400, 'INVALID_REQUEST'],
    ['a body over 4 KB', () => ({ body: consentBodyFor(website, { pageUrl: 'https://shop.example.test/'.padEnd(4200, 'a') }) }), 413, 'BODY_TOO_LARGE'],
    ['a body over 4 KB as application/json', () => ({ body: consentBodyFor(website, { pageUrl: 'x'.repeat(5000) }), headers: { 'content-type': 'application/json' } }), 413, 'BODY_TOO_LARGE'],
    ['a bad timestamp', () => ({ body: consentBodyFor(website, { occurredAt: 'yesterday' }) }), 400, 'INVALID_REQUEST'],
    ['a NUL character in the language', () => ({ body: consentBodyFor(website, { language: 'en\u0000US' }) }), 400, 'INVALID_REQUEST'],
    ['an unpaired surrogate in the page URL', () => ({ body: consentBodyFor(website, { pageUrl: 'https://shop.example.test/\ud800' }) }), 400, 'INVALID_REQUEST'],
    ['an unpaired surrogate in the visitor id', () => ({ body: consentBodyFor(website, { visitorId: 'v\udc00' }) }), 400, 'INVALID_REQUEST'],
    ['a timestamp in year 0000', () => ({ body: consentBodyFor(website, { occurredAt: '0000-01-01T00:00:00Z' }) }), 400, 'INVALID_REQUEST'],
    ['a timestamp in year 10000', () => ({ body: consentBodyFor(website, { occurredAt: '+010000-01-01T00:00:00Z' }) }), 400, 'INVALID_REQUEST'],
    ['a UTC offset of +16:00', () => ({ body: consentBodyFor(website, { occurredAt: '2026-05-01T12:00:00+16:00' }) }), 400, 'INVALID_REQUEST'],
    ['a UTC offset of +23:59', () => ({ body: consentBodyFor(website, { occurredAt: '2026-05-01T12:00:00+23:59' }) }), 400, 'INVALID_REQUEST'],
    ['a UTC offset of -14:01', () => ({ body: consentBodyFor(website, { occurredAt: '2026-05-01T12:00:00-14:01' }) }), 400, 'INVALID_REQUEST'],
    ['a form body', () => ({ body: 'embedCode=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ];

  it.each(cases)('%s → %s %s, nothing stored', async (_name, make, status, code) => {
    const before = await eventCount();
    const { body, headers } = make();
    const response = await postConsent(body, headers);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ error: { code } });
    expect(response.json().error.message.length).toBeGreaterThan(5);
    expect(await eventCount()).toBe(before);
  });

  it('names the field that holds a NUL character', async () => {
    const response = await postConsent(consentBodyFor(website, { language: 'en\u0000US' }));
    expect(response.json().error.message).toContain('language');
    expect(response.json().error.message).toContain('NUL');
  });

  it('names occurredAt and the accepted range when the instant cannot be stored', async () => {
    const response = await postConsent(consentBodyFor(website, { occurredAt: '2026-05-01T12:00:00+16:00' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('occurredAt');
    expect(response.json().error.message).toContain('0001 to 9999');
  });

  it('records a visitor clock running ahead as the receive time; one running behind as sent', async () => {
    const ahead = consentBodyFor(website, { occurredAt: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    const behind = consentBodyFor(website, { occurredAt: '2026-01-02T03:04:05+14:00' });
    expect((await postConsent(ahead)).statusCode).toBe(201);
    expect((await postConsent(behind)).statusCode).toBe(201);
    const [aheadEvent] = await storedEvents(ahead.eventId);
    expect(aheadEvent!.data.occurredAt).toBe(aheadEvent!.data.receivedAt);
    const [behindEvent] = await storedEvents(behind.eventId);
    expect(behindEvent!.data.occurredAt).toBe('2026-01-02T03:04:05+14:00');
  });

  it('a fuzzed consent endpoint never answers 5xx', async () => {
    const valid = consentBodyFor(website);
    const anyJson = fc.jsonValue({ maxDepth: 3 });
    const mutated = fc.record(
      Object.fromEntries(Object.keys(valid).map((key) => [key, fc.oneof(fc.constant((valid as Record<string, unknown>)[key]), anyJson, fc.string({ maxLength: 3000 }))])),
      { requiredKeys: [] },
    );
    const bodies = fc.oneof(
      mutated.map((body) => JSON.stringify(body)),
      anyJson.map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 5000 }),
      fc.uint8Array({ maxLength: 5000 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    const contentTypes = fc.constantFrom('text/plain', 'text/plain;charset=UTF-8', 'application/json', 'application/octet-stream', 'text/html');
    await fc.assert(
      fc.asyncProperty(bodies, contentTypes, fc.constantFrom(origin, 'https://evil.test', ''), async (payload, contentType, requestOrigin) => {
        const response = await postConsent(payload, { 'content-type': contentType, origin: requestOrigin });
        expect(response.statusCode, `${contentType} ${payload.slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: 400 },
    );
  });
});

describe('when the ledger cannot commit', () => {
  it('answers 503 so the widget keeps the event, and stores it when retried after Postgres is back', async () => {
    const url = new URL(db.connectionString);
    const proxy = await startTcpProxy({ targetHost: url.hostname, targetPort: Number(url.port || 5432) });
    url.host = `${proxy.host}:${proxy.port}`;
    const pool: Db = createPool(url.toString(), { max: 4 });
    const flaky = await buildTestIngest(pool);
    try {
      const send = (body: unknown) =>
        flaky.app.inject({ method: 'POST', url: '/api/collect/consent', headers: { 'content-type': 'text/plain', origin }, payload: JSON.stringify(body) });
      expect((await send(consentBodyFor(website))).statusCode).toBe(201);
      const body = consentBodyFor(website);
      proxy.cut();
      const down = await send(body);
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ error: { code: 'LEDGER_UNAVAILABLE' } });
      expect(await storedEvents(body.eventId)).toHaveLength(0);
      proxy.restore();
      const retried = await send(body);
      expect(retried.statusCode).toBe(201);
      expect(await storedEvents(body.eventId)).toHaveLength(1);
    } finally {
      await flaky.close();
      await pool.end();
      await proxy.close();
    }
  });
});

describe('when one address sends too much', () => {
  it('is answered 429 past the per-minute limit', async () => {
    const limited = await buildTestIngest(db.pool, { rateLimitPerMinute: 3 });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 5; index++) {
        const response = await limited.app.inject({
          method: 'POST',
          url: '/api/collect/impression',
          headers: { 'content-type': 'text/plain', origin, 'x-forwarded-for': '198.51.100.9' },
          payload: JSON.stringify({ embedCode: website.embedCode, eventId: randomUUID(), position: 'bottom', theme: 'light' }),
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([202, 202, 202, 429, 429]);
      // Counted per forwarded client address: another visitor behind the same proxy is not limited,
      // and a limited visitor is refused on every endpoint.
      const other = await limited.app.inject({
        method: 'POST',
        url: '/api/collect/consent',
        headers: { 'content-type': 'text/plain', origin, 'x-forwarded-for': '198.51.100.10' },
        payload: JSON.stringify(consentBodyFor(website)),
      });
      expect(other.statusCode).toBe(201);
      const again = await limited.app.inject({
        method: 'POST',
        url: '/api/collect/consent',
        headers: { 'content-type': 'text/plain', origin, 'x-forwarded-for': '198.51.100.9' },
        payload: JSON.stringify(consentBodyFor(website)),
      });
      expect(again.statusCode).toBe(429);
      expect(again.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    } finally {
      await limited.close();
    }
  });
});

describe('the widget assets', () => {
  it('serve the website config with branding, cacheably, and 304 for an unchanged ETag', async () => {
    const response = await ingest.app.inject({ method: 'GET', url: `/api/widget/config/${website.embedCode}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      websiteId: website.id,
      companyName: 'Shop & Co',
      logoUrl: `http://consentry.test/api/widget/logo/${website.embedCode}`,
      primaryColor: '#0f766e',
      privacyPolicyUrl: null,
      policyVersion: '1',
      position: 'bottom',
      theme: 'light',
      purposes: ['preferences', 'analytics', 'marketing'],
      services: [],
      consentLifetimeMonths: 12,
      domain: 'shop.example.test',
      language: 'en',
      dir: 'ltr',
      texts: englishTexts,
      textsHash: createHash('sha256').update(canonicalBannerTexts('en', englishTexts, 'Shop & Co')).digest('hex'),
      regional: true,
    });
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const again = await ingest.app.inject({ method: 'GET', url: `/api/widget/config/${website.embedCode}`, headers: { 'if-none-match': String(response.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it("serve the texts in the language asked for, else in the website's default, with the owner's overrides", async () => {
    const config = async (site: TestWebsite, lang?: string) =>
      (await ingest.app.inject({ method: 'GET', url: `/api/widget/config/${site.embedCode}${lang === undefined ? '' : `?lang=${lang}`}` })).json();
    const german = await config(website, 'de');
    expect(german).toMatchObject({ language: 'de', dir: 'ltr', texts: shippedTexts.de });
    expect((await config(website, 'ar')).dir).toBe('rtl');
    expect((await config(website, 'ja')).language).toBe('en');

    const french = await addTestWebsite(db.pool, {
      settings: { defaultLanguage: 'fr', textOverrides: { de: { title: 'Cookies bei {company}' } }, forceOptIn: true },
    });
    expect(await config(french)).toMatchObject({ language: 'fr', texts: shippedTexts.fr, regional: false });
    expect((await config(french, 'xx-unknown')).language).toBe('fr');
    const overridden = await config(french, 'de');
    expect(overridden.texts).toEqual({ ...shippedTexts.de, title: 'Cookies bei {company}' });
    // The hash names the texts shown: the owner's wording is another text.
    expect(overridden.textsHash).not.toBe(german.textsHash);
    expect(overridden.textsHash).toBe(createHash('sha256').update(canonicalBannerTexts('de', overridden.texts, 'Test Shop')).digest('hex'));
    // Each set of texts is in the ledger once, under its hash, before any visitor saw it.
    await config(french, 'de');
    const { rows } = await db.pool.query('SELECT stream_id, data FROM events WHERE type = $1 AND data->>$2 = $3', [
      'BannerTextsPublished',
      'textsHash',
      overridden.textsHash,
    ]);
    expect(rows).toEqual([
      {
        stream_id: `banner-texts-${overridden.textsHash}`,
        data: { textsHash: overridden.textsHash, language: 'de', companyName: 'Test Shop', texts: overridden.texts, publishedAt: expect.any(String) },
      },
    ]);
  });

  it("list the services the latest cookie scan found beside the owner's own", async () => {
    const scanned = await addTestWebsite(db.pool, {
      settings: { services: [{ purpose: 'marketing', name: 'Meta Pixel', description: 'Ads', cookies: ['_fbp'] }] },
    });
    const scanId = randomUUID();
    await appendToStream(
      db.pool,
      `scan-${scanId}`,
      [
        { type: 'ScanRequested', data: { ...exampleEventData.ScanRequested, scanId, websiteId: scanned.id } },
        { type: 'ScanCompleted', data: { ...exampleEventData.ScanCompleted, scanId, websiteId: scanned.id } },
      ],
      { inlineProjections: [scansProjection] },
    );
    const config = (await ingest.app.inject({ method: 'GET', url: `/api/widget/config/${scanned.embedCode}` })).json();
    expect(config.services).toEqual([
      { purpose: 'marketing', name: 'Meta Pixel', description: 'Ads', cookies: ['_fbp'] },
      { purpose: 'analytics', name: 'Google Analytics', description: 'Google', cookies: ['_ga'] },
    ]);
  });

  it('serve the logo as an image that cannot run script', async () => {
    const response = await ingest.app.inject({ method: 'GET', url: `/api/widget/logo/${website.embedCode}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });

  it('refuse unknown and inactive websites, and serve widget.js', async () => {
    expect((await ingest.app.inject({ method: 'GET', url: '/api/widget/config/unknownCode123' })).statusCode).toBe(404);
    expect((await ingest.app.inject({ method: 'GET', url: `/api/widget/config/${inactive.embedCode}` })).statusCode).toBe(403);
    expect((await ingest.app.inject({ method: 'GET', url: '/api/widget/config/%3Cscript%3E' })).statusCode).toBe(400);
    const script = await ingest.app.inject({ method: 'GET', url: '/widget.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('application/javascript');
    expect(script.body).toBe('/* widget */');
  });

  it('serve a built script with the compressed forms beside it, or, when those are stale, forms made at start', async () => {
    const code = Buffer.from(`/* a widget */ ${'console.log("consent");'.repeat(200)}`);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'widget-forms-'));
    await writeFile(path.join(dir, 'widget.js'), code);
    await writeFile(path.join(dir, 'widget.js.br'), brotliCompressSync(code));
    // An older build's gzip form: not this script compressed.
    await writeFile(path.join(dir, 'widget.js.gz'), gzipSync('/* an older widget */'));
    const built = await buildTestIngest(db.pool, { widgetScriptPath: path.join(dir, 'widget.js') });
    try {
      for (const coding of ['br', 'gzip'] as const) {
        const response = await built.app.inject({ method: 'GET', url: '/widget.js', headers: { 'accept-encoding': coding } });
        expect(response.headers['content-encoding']).toBe(coding);
        expect(response.headers.vary).toBe('accept-encoding');
        expect((coding === 'br' ? brotliDecompressSync : gunzipSync)(response.rawPayload).equals(code)).toBe(true);
      }
    } finally {
      await built.close();
      await rm(dir, { recursive: true, force: true });
    }
    // A script under 1 KB is sent as it is, and its answer does not vary.
    const small = await ingest.app.inject({ method: 'GET', url: '/widget.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
  });
});

describe('the rule for a visitor', () => {
  let cdn: TestIngest;
  beforeAll(async () => {
    cdn = await buildTestIngest(db.pool, { geo: 'cloudflare' });
  });
  afterAll(async () => {
    await cdn?.close();
  });
  const ruleOf = async (site: TestWebsite, headers: Record<string, string>) => {
    const response = await cdn.app.inject({ method: 'GET', url: `/api/widget/rule/${site.embedCode}`, headers });
    expect(response.headers['cache-control']).toBe('private, no-store');
    return response.json();
  };

  it('is opt-out in California, opt-in in the EU, the UK, Brazil and anywhere unknown', async () => {
    expect(await ruleOf(website, { 'cf-ipcountry': 'US', 'cf-region-code': 'CA' })).toEqual({ region: 'US-CA', rule: 'opt_out' });
    expect(await ruleOf(website, { 'cf-ipcountry': 'US', 'cf-region-code': 'NY' })).toEqual({ region: 'US-NY', rule: 'opt_in' });
    expect(await ruleOf(website, { 'cf-ipcountry': 'DE' })).toEqual({ region: 'EU', rule: 'opt_in' });
    expect(await ruleOf(website, { 'cf-ipcountry': 'GB' })).toEqual({ region: 'GB', rule: 'opt_in' });
    expect(await ruleOf(website, { 'cf-ipcountry': 'BR' })).toEqual({ region: 'BR', rule: 'opt_in' });
    expect(await ruleOf(website, {})).toEqual({ region: null, rule: 'opt_in' });
  });

  it("follows the owner's rules by region, and opt-in everywhere when forced", async () => {
    const ruled = await addTestWebsite(db.pool, { settings: { regionRules: { 'US-CA': 'opt_in', BR: 'notice_only', US: 'opt_out' } } });
    expect(await ruleOf(ruled, { 'cf-ipcountry': 'US', 'cf-region-code': 'CA' })).toEqual({ region: 'US-CA', rule: 'opt_in' });
    expect(await ruleOf(ruled, { 'cf-ipcountry': 'US', 'cf-region-code': 'NY' })).toEqual({ region: 'US-NY', rule: 'opt_out' });
    expect(await ruleOf(ruled, { 'cf-ipcountry': 'BR' })).toEqual({ region: 'BR', rule: 'notice_only' });
    const forced = await addTestWebsite(db.pool, { settings: { regionRules: { BR: 'notice_only' }, forceOptIn: true } });
    expect(await ruleOf(forced, { 'cf-ipcountry': 'BR' })).toEqual({ region: 'BR', rule: 'opt_in' });
  });

  it('is recorded with the consent, as the banner applied it', async () => {
    const body = consentBodyFor(website);
    const response = await cdn.app.inject({
      method: 'POST',
      url: '/api/collect/consent',
      headers: { 'content-type': 'text/plain', origin, 'cf-ipcountry': 'US', 'cf-region-code': 'CA' },
      payload: JSON.stringify(body),
    });
    expect(response.statusCode).toBe(201);
    const [event] = await storedEvents(body.eventId);
    expect(event?.data).toMatchObject({ rule: { rule: 'opt_out', region: 'US-CA' }, country: 'US' });
  });

  it('answers 404 and 403 for unknown and inactive websites', async () => {
    expect((await cdn.app.inject({ method: 'GET', url: '/api/widget/rule/unknownCode123' })).statusCode).toBe(404);
    expect((await cdn.app.inject({ method: 'GET', url: `/api/widget/rule/${inactive.embedCode}` })).statusCode).toBe(403);
  });
});

describe('the cookie declaration', () => {
  it('lists what the latest scan found by purpose, and what the owner declared but the scan did not see', async () => {
    const site = await addTestWebsite(db.pool, {
      companyName: 'Declared Deli',
      settings: { services: [{ purpose: 'marketing', name: 'Meta Pixel', description: 'Ads', cookies: ['_fbp'] }] },
    });
    const scanId = randomUUID();
    const base = exampleEventData.ScanCompleted.items[0]!;
    await appendToStream(
      db.pool,
      `scan-${scanId}`,
      [
        { type: 'ScanRequested', data: { ...exampleEventData.ScanRequested, scanId, websiteId: site.id } },
        {
          type: 'ScanCompleted',
          data: {
            ...exampleEventData.ScanCompleted,
            scanId,
            websiteId: site.id,
            items: [base, { ...base, name: '<img src=x onerror=alert(1)>', purpose: null, source: null, platform: null, controller: null }],
          },
        },
      ],
      { inlineProjections: [scansProjection] },
    );
    const json = await ingest.app.inject({ method: 'GET', url: `/api/cookie-declaration/${site.embedCode}` });
    expect(json.statusCode).toBe(200);
    expect(json.headers['access-control-allow-origin']).toBe('*');
    expect(json.json()).toMatchObject({
      companyName: 'Declared Deli',
      domain: 'shop.example.test',
      scannedAt: exampleEventData.ScanCompleted.completedAt,
      sections: [
        { purpose: 'analytics', items: [{ name: '_ga', provider: 'Google Analytics', retention: '2 years', firstParty: true, seen: true }] },
        { purpose: 'marketing', items: [{ name: '_fbp', provider: 'Meta Pixel', seen: false }] },
        { purpose: 'unclassified', items: [{ name: '<img src=x onerror=alert(1)>' }] },
      ],
    });

    const page = await ingest.app.inject({ method: 'GET', url: `/cookies/${site.embedCode}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('<h1>Cookies on shop.example.test</h1>');
    expect(page.body).toContain('<code>_ga</code>');
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).not.toContain('<img');
    const embedded = await ingest.app.inject({ method: 'GET', url: `/cookies/${site.embedCode}?embed=1` });
    expect(embedded.body).not.toContain('<h1>');
    expect(embedded.body).toContain('<code>_ga</code>');
  });

  it('may be framed only as the embed variant', async () => {
    const site = await addTestWebsite(db.pool);
    const frameAncestorsOf = (csp: unknown) => /(?:^|;\s*)frame-ancestors ([^;]*)/.exec(String(csp))?.[1];
    for (const url of [`/cookies/${site.embedCode}`, `/cookies/${site.embedCode}?embed=0`]) {
      const page = await ingest.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(frameAncestorsOf(page.headers['content-security-policy']), url).toBe("'none'");
      expect(page.headers['x-frame-options'], url).toBe('DENY');
    }
    const embedded = await ingest.app.inject({ method: 'GET', url: `/cookies/${site.embedCode}?embed=1` });
    expect(embedded.statusCode).toBe(200);
    expect(frameAncestorsOf(embedded.headers['content-security-policy'])).toBe('*');
    expect(embedded.headers['x-frame-options']).toBeUndefined();
    expect(embedded.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('says a site was not scanned yet, and answers 404 and 403 like the config', async () => {
    const fresh = await addTestWebsite(db.pool);
    expect((await ingest.app.inject({ method: 'GET', url: `/cookies/${fresh.embedCode}` })).body).toContain('The site has not been scanned yet.');
    expect((await ingest.app.inject({ method: 'GET', url: '/cookies/unknownCode123' })).statusCode).toBe(404);
    expect((await ingest.app.inject({ method: 'GET', url: `/api/cookie-declaration/${inactive.embedCode}` })).statusCode).toBe(403);
  });
});
