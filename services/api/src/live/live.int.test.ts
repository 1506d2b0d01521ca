// Live updates over server-sent events: a dashboard hears about projections advancing for its own
// websites (coalesced into one message naming the query keys), never about anyone else's.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryNotifier, type ProjectionNotifier } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite, type TestWebsite } from '@consentry/projections/testing';
import { accessControl } from '../access';
import { headerViewers } from '../access/testing';
import { liveRoutes } from './routes';

let db: TestDatabase;
let app: FastifyInstance;
let notifier: ProjectionNotifier;
let website: TestWebsite;
let baseUrl: string;

beforeAll(async () => {
  db = await createTestDatabase('live');
  website = await addTestWebsite(db.pool);
  notifier = createMemoryNotifier();
  app = Fastify();
  await app.register(accessControl, { viewers: headerViewers() });
  await app.register(liveRoutes, { pool: db.pool, notifier, coalesceMs: 50, maxStreamsPerAccount: 2 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
  await notifier?.close();
  await db?.drop();
});

/** Opens the stream and collects `data:` messages until `count` arrived or `ms` passed. */
async function collect(headers: Record<string, string>, act: () => void, count: number, ms: number): Promise<unknown[]> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, { headers, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const messages: unknown[] = [];
  let buffer = '';
  const deadline = setTimeout(() => controller.abort(), ms);
  act();
  try {
    while (messages.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += new TextDecoder().decode(value);
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const line of frame.split('\n')) if (line.startsWith('data: ')) messages.push(JSON.parse(line.slice(6)));
      }
    }
  } catch {
    // Aborted at the deadline.
  } finally {
    clearTimeout(deadline);
    controller.abort();
  }
  return messages;
}

describe('when projections advance for the owner’s website', () => {
  it('sends one coalesced message naming the query keys to refresh', async () => {
    const messages = await collect(
      { 'x-test-user': website.ownerId },
      () => {
        setTimeout(() => {
          notifier.publish({ projection: 'consent-stats', websiteIds: [website.id] });
          notifier.publish({ projection: 'consent-records', websiteIds: [website.id] });
          notifier.publish({ projection: 'consent-stats', websiteIds: [website.id] });
        }, 100);
      },
      1,
      3000,
    );
    expect(messages).toEqual([{ type: 'projection-advanced', keys: [['stats'], ['subscription'], ['consents']] }]);
  });
});

describe('when projections advance for someone else’s website', () => {
  it('sends nothing', async () => {
    const messages = await collect(
      { 'x-test-user': website.ownerId },
      () => setTimeout(() => notifier.publish({ projection: 'consent-stats', websiteIds: [randomUUID()] }), 100),
      1,
      800,
    );
    expect(messages).toEqual([]);
  });

  it('refuses anonymous callers', async () => {
    expect((await fetch(`${baseUrl}/api/events`)).status).toBe(401);
  });
});

describe('when one account opens many streams', () => {
  it('accepts up to the cap, refuses more with 429, and accepts again once one is closed', async () => {
    const open = async () => {
      const controller = new AbortController();
      const response = await fetch(`${baseUrl}/api/events`, { headers: { 'x-test-user': website.ownerId }, signal: controller.signal });
      return { response, close: () => controller.abort() };
    };
    const first = await open();
    const second = await open();
    expect([first.response.status, second.response.status]).toEqual([200, 200]);
    const third = await open();
    expect(third.response.status).toBe(429);
    expect(await third.response.json()).toEqual({ error: { code: 'TOO_MANY_STREAMS', message: expect.stringContaining('At most 2') } });
    // Another account is not affected.
    const admin = await fetch(`${baseUrl}/api/events`, { headers: { 'x-test-admin': '1' }, signal: AbortSignal.timeout(500) });
    expect(admin.status).toBe(200);
    first.close();
    await expect.poll(async () => {
      const again = await open();
      again.close();
      return again.response.status;
    }).toBe(200);
    second.close();
  });
});
