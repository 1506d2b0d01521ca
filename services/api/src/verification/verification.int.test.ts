// Installation verification: finds the snippet on the owner's page, reports the last event, and
// cannot be turned against private networks — loopback, RFC 1918, link-local metadata, a DNS name
// that resolves to loopback, or a redirect to any of those. The refused targets are real servers
// on loopback, so a failure to refuse would show as a fetched page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite, type TestWebsite } from '@consentry/projections/testing';
import { replayProjection, websiteActivityProjection } from '@consentry/projections';
import { accessControl } from '../access';
import { headerViewers } from '../access/testing';
import { apiErrorHandler } from '../errors';
import { verificationRoutes, type VerificationOptions } from './routes';
import { isBlockedAddress } from '@consentry/infra';
import { safeFetch } from './safe-fetch';
import { findSnippet } from './snippet';

let db: TestDatabase;
let website: TestWebsite;
let other: TestWebsite;
let live: TestWebsite;
let pages: Server;
let port = 0;
const routes: Record<string, (response: import('node:http').ServerResponse) => void> = {};

beforeAll(async () => {
  db = await createTestDatabase('verification');
  website = await addTestWebsite(db.pool, { domain: 'bakery.example.test' });
  other = await addTestWebsite(db.pool, { domain: 'florist.example.test' });
  live = await addTestWebsite(db.pool, { domain: 'lan-only.example.test' });
  const appender = createGroupCommitAppender(db.pool);
  await appender.append(consentAppendRequest({ websiteId: website.id, receivedAt: '2026-11-20T09:30:00.000Z' }));
  await appender.append(consentAppendRequest({ websiteId: live.id, receivedAt: new Date(Date.now() - 60_000).toISOString() }));
  await appender.close();
  await waitForLogVisible(db.pool);
  await replayProjection(db.pool, websiteActivityProjection);
  pages = createServer((request, response) => {
    const handler = routes[request.url ?? '/'];
    if (handler) handler(response);
    else response.writeHead(404).end('missing');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  port = (pages.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => pages?.close(() => resolve()));
  await db?.drop();
});

const snippet = (code: string) => `<script src="https://consent.example.com/widget.js" data-embed-code="${code}" data-position="bottom" defer></script>`;

async function appWith(options: Partial<VerificationOptions>): Promise<FastifyInstance> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Behind the access check and the error handler, as in the api.
  app.setErrorHandler(apiErrorHandler);
  await app.register(accessControl, { viewers: headerViewers() });
  await app.register(verificationRoutes, { pool: db.pool, ...options });
  await app.ready();
  return app;
}

async function verify(app: FastifyInstance, embedCode: string, owner = website.ownerId) {
  return app.inject({ method: 'POST', url: '/api/verify-installation', headers: { 'x-test-user': owner }, payload: { embedCode } });
}

describe('when the snippet is on the page', () => {
  it('answers success with the last event the ledger received', async () => {
    routes['/installed'] = (response) => response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>Bakery</h1>${snippet(website.embedCode)}</body></html>`);
    const app = await appWith({ fetch: { allowHosts: ['127.0.0.1'] }, pageUrlsFor: () => [`http://127.0.0.1:${port}/installed`] });
    const response = await verify(app, website.embedCode);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'Installation verified successfully!',
      details: { url: `http://127.0.0.1:${port}/installed`, statusCode: 200, scriptFound: true, embedCodeFound: true, reason: null, lastEventAt: '2026-11-20T09:30:00.000Z' },
    });
    await app.close();
  });
});

describe('when the snippet is missing or wrong', () => {
  it('says which, with the spec’s failure text', async () => {
    routes['/bare'] = (response) => response.writeHead(200).end('<html><body>No script here</body></html>');
    routes['/wrong'] = (response) => response.writeHead(200).end(`<html><body>${snippet('someoneElsesCode1')}</body></html>`);
    for (const [path, reason] of [['/bare', 'was not found'], ['/wrong', 'different embed code']] as const) {
      const app = await appWith({ fetch: { allowHosts: ['127.0.0.1'] }, pageUrlsFor: () => [`http://127.0.0.1:${port}${path}`] });
      const body = (await verify(app, website.embedCode)).json();
      expect(body).toMatchObject({ success: false, error: 'Could not verify the installation on your website.' });
      expect(body.details.reason).toContain(reason);
      await app.close();
    }
  });
});

describe('when the target is not a public website', () => {
  routes['/secret'] = (response) => response.writeHead(200).end(`internal admin ${snippet('x')}`);
  routes['/to-loopback'] = (response) => response.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
  routes['/to-metadata'] = (response) => response.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
  const lookup = async (hostname: string) =>
    hostname === 'loopback.example.test' || hostname === 'redirector.example.test' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '93.184.216.34', family: 4 }];

  it.each([
    ['loopback by IP', () => `http://127.0.0.1:${port}/secret`, {}],
    ['a 10.x address', () => 'http://10.1.2.3/', {}],
    ['a 192.168.x address', () => 'http://192.168.0.10/', {}],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/', {}],
    ['IPv6 loopback', () => `http://[::1]:${port}/secret`, {}],
    ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${port}/secret`, {}],
    ['a DNS name resolving to loopback', () => `http://loopback.example.test:${port}/secret`, { lookup }],
    ['a redirect to loopback', () => `http://redirector.example.test:${port}/to-loopback`, { lookup, allowHosts: ['redirector.example.test'] }],
    ['a redirect to the metadata address', () => `http://redirector.example.test:${port}/to-metadata`, { lookup, allowHosts: ['redirector.example.test'] }],
  ])('refuses %s', async (_name, url, fetchOptions) => {
    await expect(safeFetch(url(), { timeoutMs: 2000, ...fetchOptions })).rejects.toThrow(/private or reserved address/);
  });

  it('answers the owner with the reason, through the endpoint', async () => {
    const app = await appWith({ fetch: { lookup }, pageUrlsFor: () => [`http://loopback.example.test:${port}/secret`] });
    const body = (await verify(app, website.embedCode)).json();
    expect(body.success).toBe(false);
    expect(body.details.reason).toMatch(/private or reserved address/);
    await app.close();
  });

  it('gives up on a page that never answers, and reads at most the size cap', async () => {
    routes['/slow'] = () => undefined;
    await expect(safeFetch(`http://127.0.0.1:${port}/slow`, { allowHosts: ['127.0.0.1'], timeoutMs: 300 })).rejects.toThrow(/No answer within 300 ms/);
    routes['/huge'] = (response) => response.writeHead(200).end(`${'x'.repeat(3 * 1024 * 1024)}${snippet(website.embedCode)}`);
    const page = await safeFetch(`http://127.0.0.1:${port}/huge`, { allowHosts: ['127.0.0.1'], maxBytes: 1024 * 1024 });
    expect(page.body.length).toBe(1024 * 1024);
    expect(findSnippet(page.body, website.embedCode).embedCodeFound).toBe(false);
  });
});

describe('when no page can be fetched but events arrive', () => {
  const unresolvable = async () => [];

  it('says first that the snippet works, and the fetch problem second', async () => {
    const app = await appWith({ fetch: { lookup: unresolvable } });
    const body = (await verify(app, live.embedCode, live.ownerId)).json();
    expect(body).toMatchObject({ success: true, message: 'The snippet works: events from this website are arriving.' });
    expect(body.details).toMatchObject({ url: null, reason: 'lan-only.example.test could not be resolved' });
    expect(Date.now() - Date.parse(body.details.lastEventAt)).toBeLessThan(10 * 60_000);
    await app.close();
  });

  it('still fails when the last event is older than a week', async () => {
    const app = await appWith({ fetch: { lookup: unresolvable } });
    const body = (await verify(app, website.embedCode)).json();
    expect(body).toMatchObject({ success: false, error: 'Could not verify the installation on your website.' });
    expect(body.details).toMatchObject({ reason: 'bakery.example.test could not be resolved', lastEventAt: '2026-11-20T09:30:00.000Z' });
    await app.close();
  });
});

describe('when someone verifies a website that is not theirs', () => {
  it('is refused like an unknown one, and anonymous callers are refused', async () => {
    const app = await appWith({});
    expect((await verify(app, other.embedCode, website.ownerId)).statusCode).toBe(404);
    expect((await verify(app, 'unknownCode123')).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/api/verify-installation', payload: { embedCode: website.embedCode } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/verify-installation', headers: { 'x-test-user': website.ownerId }, payload: {} })).statusCode).toBe(400);
    await app.close();
  });
});

describe('blocked address ranges', () => {
  it.each([
    ['127.0.0.1', true], ['10.0.0.1', true], ['172.16.5.4', true], ['172.32.0.1', false], ['192.168.1.1', true],
    ['169.254.169.254', true], ['100.64.0.1', true], ['0.0.0.0', true], ['224.0.0.1', true], ['93.184.216.34', false],
    ['::1', true], ['::', true], ['fe80::1', true], ['fd12:3456::1', true], ['::ffff:127.0.0.1', true], ['::ffff:7f00:1', true],
    ['64:ff9b::a9fe:a9fe', true], ['2606:4700::6810:84e5', false], ['not-an-ip', true],
  ])('%s blocked: %s', (address, expected) => {
    expect(isBlockedAddress(address)).toBe(expected);
  });
});

describe('finding the snippet', () => {
  it('accepts the documented attributes in any order and quoting', () => {
    expect(findSnippet(`<script defer data-consentry-id='abcdefgh12' src=/widget.js></script>`, 'abcdefgh12')).toEqual({ scriptFound: true, embedCodeFound: true });
    expect(findSnippet('<script src="/other.js" data-embed-code="abcdefgh12"></script>', 'abcdefgh12')).toEqual({ scriptFound: false, embedCodeFound: false });
  });
});

describe('when an account checks again and again', () => {
  it('allows its per-minute checks, then answers 429 without fetching, while other accounts go on', async () => {
    let fetched = 0;
    routes['/counted'] = (response) => {
      fetched++;
      response.writeHead(200).end(`<html><body>${snippet(website.embedCode)}</body></html>`);
    };
    const app = await appWith({ fetch: { allowHosts: ['127.0.0.1'] }, pageUrlsFor: () => [`http://127.0.0.1:${port}/counted`], perAccountPerMinute: 3 });
    for (let check = 0; check < 3; check++) expect((await verify(app, website.embedCode)).statusCode).toBe(200);
    const limited = await verify(app, website.embedCode);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many installation checks; try again in \d+ seconds?$/) } });
    expect(fetched).toBe(3);
    expect((await verify(app, other.embedCode, other.ownerId)).statusCode).toBe(200);
    await app.close();
  });
});
