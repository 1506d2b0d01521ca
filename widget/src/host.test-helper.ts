// Test helper for the widget's end-to-end tests: a Consentry host and an owner's site as real HTTP
// servers on loopback, serving the bundles as built for shipping (scripts/bundle.ts) and recording every
// request, and headless Chromium to visit them. The host answers the config by the embed code's first
// word, so each test can use an embed code of its own and find its requests by it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// The server's own English texts, so the widget is tested with what the config really carries.
import { englishTexts } from '@consentry/events';
import { BUNDLES, buildBundle } from '../scripts/bundle';

export { launchChromium } from '@consentry/infra/testing';

export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  /** The raw body, as the browser sent it. */
  body: string;
}

export interface LoopbackServer {
  /** `http://host:port`, no trailing slash. */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

async function serve(hostname: string, handle: Handler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: request.method ?? 'GET', url: request.url ?? '/', body });
      handle(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${hostname}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the host answers for the config of an embed code starting with each word. */
export const CONFIGS: Record<string, Record<string, unknown>> = {
  // Identification offered, every form with an email field read.
  all: { identification: { forms: 'all', script: '/identify.js' } },
  // Only forms marked data-consentry-identify.
  marked: { identification: { forms: 'marked', script: '/identify.js' } },
  // Rules by region; the visitor is in a US opt-out state.
  region: { identification: { forms: 'all', script: '/identify.js' }, regional: true },
  // The capture script cannot be had (404).
  broken: { identification: { forms: 'all', script: '/missing.js' } },
  // The identification purpose asked, but the host offers no capture (an older server).
  plain: {},
};

export function configFor(embedCode: string): Record<string, unknown> {
  return {
    websiteId: '6f1d0c2e-8a4b-4c3d-9e5f-1a2b3c4d5e6f',
    companyName: 'Bäckerei Example',
    logoUrl: null,
    primaryColor: '#2563eb',
    privacyPolicyUrl: null,
    policyVersion: '1',
    purposes: ['preferences', 'analytics', 'marketing', 'identification'],
    services: [],
    consentLifetimeMonths: 12,
    domain: 'shop.example.test',
    texts: englishTexts,
    language: 'en',
    dir: 'ltr',
    textsHash: 'a'.repeat(64),
    regional: false,
    ...CONFIGS[embedCode.split('-')[0] as string],
  };
}

/**
 * The Consentry host: widget.js and identify.js as shipped, the config and rule endpoints, and 201 to
 * every collect request (CORS open, as ingest answers the widget).
 */
export async function startConsentryHost(): Promise<LoopbackServer> {
  const scripts: Record<string, string> = {};
  for (const bundle of BUNDLES) scripts['/' + bundle.file] = await buildBundle(bundle);
  return serve('localhost', (request, _body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const cors = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
    const script = scripts[url.pathname];
    const embedCode = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    if (request.method === 'GET' && script) {
      response.writeHead(200, { ...cors, 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    } else if (request.method === 'GET' && url.pathname.startsWith('/api/widget/config/')) {
      response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(configFor(embedCode)));
    } else if (request.method === 'GET' && url.pathname.startsWith('/api/widget/rule/')) {
      response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ region: 'US-CA', rule: 'opt_out' }));
    } else if (request.method === 'POST' && url.pathname.startsWith('/api/collect/')) {
      response.writeHead(201, { ...cors, 'content-type': 'application/json' }).end('{}');
    } else {
      response.writeHead(404, cors).end('not found');
    }
  });
}

/** The owner's site: `pages` by path (any method, so forms can post to them). */
export function startSite(pages: (path: string) => string | undefined): Promise<LoopbackServer> {
  return serve('www.shop.example.test', (request, _body, response) => {
    const page = pages(new URL(request.url ?? '/', 'http://x').pathname);
    if (page === undefined) response.writeHead(404).end('not found');
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
}
