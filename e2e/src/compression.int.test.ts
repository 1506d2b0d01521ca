// Compression and caching of the whole server as the composition root builds it, serving the widget
// and the web app as `npm run build` built them (docs/architecture.md, "Compression and caching"):
// Brotli or gzip by Accept-Encoding, each byte-for-byte what was built; Vary; a strong ETag per form
// and 304s; long caching for hashed assets and short for the loader; small answers and live updates
// never compressed; downloads compressed as they stream.
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webAppDir, widgetScriptPath } from '@consentry/server';
import { startWebSystemWithWebsite, type WebSystem } from './web-harness';

let web: WebSystem;
let http: FastifyInstance;
let cookie: string;
let embedCode: string;

beforeAll(async () => {
  ({ web, http, cookie, embedCode } = await startWebSystemWithWebsite('compression', { email: 'zora@zlib.example.test', firstName: 'Zora', lastName: 'Zlib' }, { name: 'Zlib Bakery', domain: 'zlib.example.test' }));
}, 120_000);
afterAll(async () => {
  await web?.stop();
});

const decoders = { br: brotliDecompressSync, gzip: gunzipSync } as const;
const get = (url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> => http.inject({ method: 'GET', url, headers });

/** The body as the browser gets it once it undid the Content-Encoding the answer names. */
function decoded(response: LightMyRequestResponse): Buffer {
  const coding = response.headers['content-encoding'];
  if (coding === undefined) return response.rawPayload;
  if (coding !== 'br' && coding !== 'gzip') throw new Error(`unexpected content-encoding ${String(coding)}`);
  return decoders[coding](response.rawPayload);
}

const varyNames = (response: LightMyRequestResponse): string[] =>
  String(response.headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());

/** Checks `url` against `file` for br, gzip and identity; returns the ETag of each form. */
async function expectEveryForm(url: string, file: Buffer): Promise<Record<'br' | 'gzip' | 'identity', string>> {
  const br = await get(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
  const gzip = await get(url, { 'accept-encoding': 'gzip, deflate' });
  const identity = await get(url, { 'accept-encoding': 'identity' });
  const none = await get(url);
  for (const [response, coding] of [[br, 'br'], [gzip, 'gzip'], [identity, undefined], [none, undefined]] as const) {
    expect(response.statusCode, `${url} ${coding}`).toBe(200);
    expect(response.headers['content-encoding'], url).toBe(coding);
    expect(decoded(response).equals(file), `${url} decodes to the built file (${coding ?? 'identity'})`).toBe(true);
    expect(varyNames(response), url).toContain('accept-encoding');
  }
  expect(br.rawPayload.byteLength).toBeLessThan(gzip.rawPayload.byteLength);
  expect(gzip.rawPayload.byteLength).toBeLessThan(file.byteLength);
  expect(identity.headers.etag).toBe(none.headers.etag);
  return { br: String(br.headers.etag), gzip: String(gzip.headers.etag), identity: String(identity.headers.etag) };
}

describe('/widget.js, the loader every site embeds', () => {
  const built = readFileSync(widgetScriptPath());

  it('is sent as Brotli, gzip or as built, by Accept-Encoding, each decoding to the exact file', async () => {
    const etags = await expectEveryForm('/widget.js', built);
    // Strong, and one per form: a form is a representation of its own.
    for (const etag of Object.values(etags)) expect(etag).toMatch(/^"[^"]+"$/);
    expect(new Set(Object.values(etags)).size).toBe(3);
  });

  it('is cached briefly and revalidated, with a 304 for the form the browser has', async () => {
    const first = await get('/widget.js', { 'accept-encoding': 'br' });
    expect(first.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=86400');
    const again = await get('/widget.js', { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.byteLength).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(varyNames(again)).toContain('accept-encoding');
    expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
    // The Brotli form's tag does not stand for the gzip form.
    const otherForm = await get('/widget.js', { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) });
    expect(otherForm.statusCode).toBe(200);
    expect(otherForm.headers['content-encoding']).toBe('gzip');
  });

  it('picks the coding the browser weighs highest', async () => {
    expect((await get('/widget.js', { 'accept-encoding': 'br;q=0.5, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await get('/widget.js', { 'accept-encoding': 'br;q=0, *' })).headers['content-encoding']).toBe('gzip');
    expect((await get('/widget.js', { 'accept-encoding': 'deflate' })).headers['content-encoding']).toBeUndefined();
  });
});

describe('/identify.js', () => {
  it('is sent compressed like the loader, and cached like it', async () => {
    const built = readFileSync(path.join(path.dirname(widgetScriptPath()), 'identify.js'));
    await expectEveryForm('/identify.js', built);
    expect((await get('/identify.js')).headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=86400');
  });
});

describe("the widget's config", () => {
  it('is compressed, cacheable for a minute, and answers 304 to its own ETag', async () => {
    const url = `/api/widget/config/${embedCode}?lang=en`;
    const plain = await get(url);
    expect(plain.rawPayload.byteLength).toBeGreaterThan(1024);
    const etags = await expectEveryForm(url, plain.rawPayload);
    const br = await get(url, { 'accept-encoding': 'br' });
    expect(br.headers['cache-control']).toBe('public, max-age=60');
    expect(br.headers['access-control-allow-origin']).toBe('*');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': etags.br });
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(etags.br);
  });

  it('leaves the visitor’s rule, a few bytes, uncompressed and uncached', async () => {
    const rule = await get(`/api/widget/rule/${embedCode}`, { 'accept-encoding': 'br, gzip' });
    expect(rule.statusCode).toBe(200);
    expect(rule.headers['content-encoding']).toBeUndefined();
    expect(rule.headers['cache-control']).toBe('private, no-store');
    expect(rule.json()).toHaveProperty('rule');
  });
});

describe("the web app's hashed assets", () => {
  it('are sent as the build compressed them, cached for good, with 304s', async () => {
    const page = await get('/login');
    const scripts = [...page.body.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const asset of scripts) {
      const file = readFileSync(path.join(webAppDir(), asset));
      if (file.byteLength < 1024) continue;
      await expectEveryForm(asset, file);
      const br = await get(asset, { 'accept-encoding': 'br' });
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.etag).toBeDefined();
      const again = await get(asset, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
      expect(again.statusCode).toBe(304);
    }
  });
});

describe('the api', () => {
  it('compresses large JSON on the fly', async () => {
    const plain = await get('/api/docs/json');
    expect(plain.rawPayload.byteLength).toBeGreaterThan(1024);
    for (const coding of ['br', 'gzip'] as const) {
      const response = await get('/api/docs/json', { 'accept-encoding': coding });
      expect(response.headers['content-encoding']).toBe(coding);
      expect(varyNames(response)).toContain('accept-encoding');
      expect(JSON.parse(decoded(response).toString('utf8'))).toEqual(plain.json());
    }
  });

  it('leaves a small JSON answer under the threshold uncompressed', async () => {
    const health = await get('/healthz', { 'accept-encoding': 'br, gzip' });
    expect(health.statusCode).toBe(200);
    expect(health.rawPayload.byteLength).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('streams a download through the compressor, the same rows as uncompressed', async () => {
    const plain = await get('/api/export/consents?format=csv', { cookie });
    const br = await get('/api/export/consents?format=csv', { cookie, 'accept-encoding': 'br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-type']).toBe('text/csv; charset=utf-8');
    // Compressed only when its header row alone reaches the threshold; either way, the same text.
    expect(decoded(br).toString('utf8')).toBe(plain.body);
    expect(br.headers['content-length']).toBeUndefined();
  });

  it('never compresses nor buffers the live-update stream', async () => {
    const answer = await new Promise<{ status: number | undefined; headers: Record<string, unknown>; first: string }>((resolve, reject) => {
      const req = httpRequest(`${web.url}/api/events`, { headers: { cookie, 'accept-encoding': 'br, gzip' } }, (response) => {
        // The first event arrives as it is sent: a compressor would hold it back.
        response.once('data', (chunk: Buffer) => {
          resolve({ status: response.statusCode, headers: response.headers, first: chunk.toString('utf8') });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.first).toMatch(/^(?::|retry:|event:|data:)/m);
  });
});
