// What the running product's logger (infra's createLogger, as system.ts hands it to Fastify) writes
// for visitors' requests at info level: the routes a browser fetches outside the collection
// endpoints, whose address must appear only truncated, as the ledger keeps it by default.
import { PassThrough } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { examplePngDataUrl } from '@consentry/events/examples';
import { addTestWebsite, buildTestIngest, type TestIngest, type TestWebsite } from './testing/ingest-app';

let db: TestDatabase;
let ingest: TestIngest;
let website: TestWebsite;
const logged: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase('request_logging');
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => logged.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const logger = createLogger({ level: 'info', format: 'json', destination });
  ingest = await buildTestIngest(db.pool, { loggerInstance: logger.child({ component: 'http' }) as FastifyBaseLogger });
  website = await addTestWebsite(db.pool, { companyName: 'Logged Shop', logoUrl: examplePngDataUrl });
});
afterAll(async () => {
  await ingest?.close();
  await db?.drop();
});

const visitors = [
  { via: { headers: { 'x-forwarded-for': '203.0.113.77' } }, full: '203.0.113.77', kept: '203.0.113.0' },
  { via: { headers: { 'x-forwarded-for': '2001:db8:85a3:1234:5678:8a2e:370:7334' } }, full: '2001:db8:85a3:1234', kept: '2001:db8:85a3::' },
  { via: { headers: { 'x-forwarded-for': '::ffff:192.0.2.201' } }, full: '192.0.2.201', kept: '192.0.2.0' },
  // Not through a trusted proxy: the connection's own address.
  { via: { remoteAddress: '198.51.100.99' }, full: '198.51.100.99', kept: '198.51.100.0' },
];

describe('a visitor’s request, as the log records it', () => {
  it.each(['/api/widget/config/{code}', '/api/widget/logo/{code}', '/cookies/{code}', '/cookies/{code}?embed=1'])(
    'carries only the truncated address: %s',
    async (route) => {
      const url = route.replace('{code}', website.embedCode);
      for (const { via, full, kept } of visitors) {
        logged.length = 0;
        const response = await ingest.app.inject({ method: 'GET', url, ...via });
        expect(response.statusCode, `${url} ${full}`).toBe(200);
        const lines = logged.map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string; remoteAddress?: unknown } });
        const incoming = lines.filter((line) => line.req?.url === url);
        expect(incoming.length, 'the request is logged at info level').toBeGreaterThan(0);
        for (const line of incoming) expect(line.req?.remoteAddress).toBe(kept);
        const text = logged.join('\n');
        expect(text).not.toContain(full);
        // No whole IPv4 address of anyone: every dotted quad in the log ends in .0.
        for (const quad of text.match(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g) ?? []) expect(quad).toMatch(/\.0$/);
      }
    },
  );
});
