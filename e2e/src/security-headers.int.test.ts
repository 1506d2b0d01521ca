// The security headers of the whole server as the composition root builds it (ingest, api and web
// app on one port): the web app's pages and the api carry the CSP, Referrer-Policy, nosniff and
// same-origin resource policy; the api's JSON answers are never stored; and what other websites
// embed (widget.js, the widget's config, the collection endpoints) stays loadable cross-origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebSystemWithWebsite, type WebSystem } from './web-harness';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';

let web: WebSystem;
let http: FastifyInstance;
let cookie: string;
let embedCode: string;

beforeAll(async () => {
  ({ web, http, cookie, embedCode } = await startWebSystemWithWebsite('security_headers', { email: 'hedda@headers.example.test', firstName: 'Hedda', lastName: 'Headers' }, { name: 'Header Bakery', domain: 'bakery.example.test' }));
}, 120_000);
afterAll(async () => {
  await web?.stop();
});

/** The CSP as directive → sources. */
function cspOf(response: LightMyRequestResponse): Map<string, string[]> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0] !== '')
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('a page of the web app', () => {
  // '/assets/' and '/assets' name a folder of the build: the app's page too, never a listing or a 403.
  it.each(['/', '/login', '/dashboard', '/admin/websites', '/no/such/page', '/assets/', '/assets', '/websites/'])('%s carries the CSP and the other security headers', async (url) => {
    const response = await http.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = cspOf(response);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual([url === '/' ? "'self'" : "'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    // No inline script at all; inline <style> only with this response's nonce.
    expect(csp.get('script-src')?.filter((source) => !source.startsWith("'nonce-"))).toEqual(["'self'"]);
    const styleNonce = csp.get('style-src')?.find((source) => source.startsWith("'nonce-"));
    expect(csp.get('style-src')).toEqual(["'self'", styleNonce]);
    expect(response.body).toContain(`<meta property="csp-nonce" nonce="${styleNonce!.slice("'nonce-".length, -1)}" />`);
    // Plain http: upgrading the app's own requests to https would break it.
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['etag']).toBeUndefined();
  });

  it('gives every response its own nonce, and serves /index.html only with one', async () => {
    const [first, second] = await Promise.all([http.inject('/login'), http.inject('/login')]);
    expect(cspOf(first).get('style-src')).not.toEqual(cspOf(second).get('style-src'));
    const direct = await http.inject('/index.html');
    expect(direct.body).toContain('<meta property="csp-nonce"');
  });

  it('serves hashed assets with the headers too', async () => {
    const page = await http.inject('/login');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)![1]!;
    const asset = await http.inject(script);
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe('the api', () => {
  it('answers signed-in JSON with no-store and the security headers', async () => {
    for (const url of ['/api/auth/user', '/api/websites', '/api/stats/consents']) {
      const response = await http.inject({ method: 'GET', url, headers: { cookie } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('same-origin');
      expect(cspOf(response).get('frame-ancestors'), url).toEqual(["'none'"]);
    }
  });

  it('answers errors with no-store too, and keeps a download’s own caching', async () => {
    const anonymous = await http.inject({ method: 'GET', url: '/api/websites' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
    const download = await http.inject({ method: 'GET', url: '/api/export/consents?format=csv', headers: { cookie } });
    expect(download.headers['cache-control']).toBe('no-store');
    expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
  });

  it('serves the API documentation under the CSP', async () => {
    const docs = await http.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(cspOf(docs).get('default-src')).toEqual(["'self'"]);
    expect(cspOf(docs).get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe('what other websites embed', () => {
  const crossSite = { origin: 'https://bakery.example.test', referer: 'https://bakery.example.test/' };

  function expectEmbeddable(response: LightMyRequestResponse): void {
    // A no-cors <script src> from another site is blocked by a same-origin (or same-site) CORP.
    expect([undefined, 'cross-origin']).toContain(response.headers['cross-origin-resource-policy']);
    expect(response.headers['cross-origin-embedder-policy']).toBeUndefined();
    expect(response.headers['x-frame-options']).toBeUndefined();
    expect(response.headers['content-security-policy']).toBeUndefined();
  }

  it('/widget.js loads from any site', async () => {
    const response = await http.inject({ method: 'GET', url: '/widget.js', headers: crossSite });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expectEmbeddable(response);
  });

  it('the widget’s config is readable cross-origin', async () => {
    const response = await http.inject({ method: 'GET', url: `/api/widget/config/${embedCode}`, headers: crossSite });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expectEmbeddable(response);
  });

  it('the collection endpoints accept the website’s own origin, preflight included', async () => {
    const preflight = await http.inject({
      method: 'OPTIONS',
      url: '/api/collect/consent',
      headers: { ...crossSite, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(crossSite.origin);
    expectEmbeddable(preflight);
    const consent = await http.inject({
      method: 'POST',
      url: '/api/collect/consent',
      headers: { ...crossSite, 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({ embedCode, eventId: randomUUID(), visitorId: randomUUID(), choice: 'accepted', source: 'banner', policyVersion: '1', occurredAt: new Date().toISOString() }),
    });
    expect(consent.statusCode).toBe(201);
    expect(consent.headers['access-control-allow-origin']).toBe(crossSite.origin);
    expectEmbeddable(consent);
  });
});
