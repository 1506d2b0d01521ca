// What ingest keeps of the page addresses a visitor's browser sends (a consent's pageUrl, a page
// view's url and referrer): never the query string, fragment or credentials, which carry what the
// visitor typed; and an email that is not an address is refused at the edge, never stored.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { acceptedEmails, refusedEmails } from '@consentry/events/testing';
import { addTestWebsite, buildTestIngest, consentBodyFor, type TestIngest, type TestWebsite } from '../testing/ingest-app';

let db: TestDatabase;
let ingest: TestIngest;
let website: TestWebsite;
let keepingWebsite: TestWebsite;
const origin = 'https://www.shop.example.test';
const typed = 'ada.lovelace@example.org';

beforeAll(async () => {
  db = await createTestDatabase('page_addresses');
  ingest = await buildTestIngest(db.pool);
  website = await addTestWebsite(db.pool, { settings: { purposes: ['analytics', 'identification'] } });
  keepingWebsite = await addTestWebsite(db.pool, { domain: 'keeps.example.test', settings: { purposes: ['analytics'], keepPageQueryStrings: true } });
});
afterAll(async () => {
  await ingest?.close();
  await db?.drop();
});

const post = (path: string, body: unknown) =>
  ingest.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'text/plain;charset=UTF-8', origin }, payload: JSON.stringify(body) });

async function storedData(eventId: string): Promise<Record<string, unknown> | undefined> {
  const { rows } = await db.pool.query<{ data: Record<string, unknown> }>('SELECT data FROM events WHERE event_id = $1', [eventId]);
  return rows[0]?.data;
}

describe('a consent sent from a page whose address holds what the visitor typed', () => {
  it('is stored with the page address only', async () => {
    const body = consentBodyFor(website, { pageUrl: `https://ada:secret@www.shop.example.test/signup?email=${typed}&step=2#token=abc` });
    const response = await post('/api/collect/consent', body);
    expect(response.statusCode, response.body).toBe(201);
    expect(await storedData(body.eventId)).toMatchObject({ pageUrl: 'https://www.shop.example.test/signup' });
    const stored = JSON.stringify(await storedData(body.eventId));
    for (const secret of [typed, 'ada:secret', 'token=abc']) expect(stored).not.toContain(secret);
  });
});

describe('a page view whose address and referrer hold what the visitor typed', () => {
  it('is stored with both addresses only, the path as before', async () => {
    const visitorId = randomUUID();
    const body = {
      embedCode: website.embedCode,
      eventId: randomUUID(),
      visitorId,
      pageviewId: randomUUID(),
      url: `https://www.shop.example.test/welcome?email=${typed}#${typed}`,
      referrer: `https://www.shop.example.test/signup?email=${typed}`,
      title: 'Welcome',
    };
    const response = await post('/api/collect/pageview', body);
    expect(response.statusCode, response.body).toBe(202);
    expect(await storedData(body.eventId)).toMatchObject({
      url: 'https://www.shop.example.test/welcome',
      path: '/welcome',
      referrer: 'https://www.shop.example.test/signup',
    });
    expect(JSON.stringify(await storedData(body.eventId))).not.toContain(typed);
  });

  it('whose address is nothing but a query is refused with a 400', async () => {
    const body = { embedCode: website.embedCode, eventId: randomUUID(), visitorId: randomUUID(), pageviewId: randomUUID(), url: `?email=${typed}` };
    const response = await post('/api/collect/pageview', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'INVALID_REQUEST', message: 'Invalid request: url: Expected the page address' } });
    expect(await storedData(body.eventId)).toBeUndefined();
  });
});

describe('a website whose owner keeps query strings (keepPageQueryStrings)', () => {
  const keptOrigin = 'https://www.keeps.example.test';
  const postKept = (path: string, body: unknown) =>
    ingest.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'text/plain;charset=UTF-8', origin: keptOrigin }, payload: JSON.stringify(body) });

  it('stores the query strings of its consents and page views, never their fragments or credentials', async () => {
    const consent = consentBodyFor(keepingWebsite, { pageUrl: `https://ada:secret@www.keeps.example.test/landing?utm_source=news#token=abc` });
    expect((await postKept('/api/collect/consent', consent)).statusCode).toBe(201);
    expect(await storedData(consent.eventId)).toMatchObject({ pageUrl: 'https://www.keeps.example.test/landing?utm_source=news' });

    const view = {
      embedCode: keepingWebsite.embedCode,
      eventId: randomUUID(),
      visitorId: randomUUID(),
      pageviewId: randomUUID(),
      url: 'https://www.keeps.example.test/landing?utm_source=news&utm_campaign=autumn#top',
      referrer: 'https://search.example/?q=consent+platform',
    };
    expect((await postKept('/api/collect/pageview', view)).statusCode).toBe(202);
    expect(await storedData(view.eventId)).toMatchObject({
      url: 'https://www.keeps.example.test/landing?utm_source=news&utm_campaign=autumn',
      path: '/landing',
      referrer: 'https://search.example/?q=consent+platform',
    });
  });

  it('still refuses a page view whose address is nothing but a query', async () => {
    const body = { embedCode: keepingWebsite.embedCode, eventId: randomUUID(), visitorId: randomUUID(), pageviewId: randomUUID(), url: '?utm_source=news' };
    expect((await postKept('/api/collect/pageview', body)).statusCode).toBe(400);
  });
});

describe('an identification whose email is not an address a mail server would take', () => {
  it.each(refusedEmails)('is refused with a 400 naming the field, nothing stored: %j', async (email) => {
    const body = {
      embedCode: website.embedCode,
      eventId: randomUUID(),
      visitorId: randomUUID(),
      consentEventId: randomUUID(),
      source: 'call',
      email,
      name: null,
      company: null,
      pageUrl: null,
      occurredAt: new Date().toISOString(),
    };
    const response = await post('/api/collect/identify', body);
    expect(response.statusCode).toBe(400);
    // Control characters are refused before the schema, by the text check every field passes.
    const message = [...email].some((char) => char < ' ') ? expect.stringMatching(/^Invalid request: email: /) : 'Invalid request: email: Expected an email address (name@example.com)';
    expect(response.json()).toEqual({ error: { code: 'INVALID_REQUEST', message } });
    expect(await storedData(body.eventId)).toBeUndefined();
  });

  it.each(acceptedEmails)('passes the edge when it is one (%j), and goes on to the consent check', async (email) => {
    const body = {
      embedCode: website.embedCode,
      eventId: randomUUID(),
      visitorId: randomUUID(),
      consentEventId: randomUUID(),
      source: 'call',
      email,
      occurredAt: new Date().toISOString(),
    };
    const response = await post('/api/collect/identify', body);
    // No consent allowed it: 403 from the check behind the edge, not a 400 from the schema.
    expect(response.statusCode, response.body).toBe(403);
  });
});
