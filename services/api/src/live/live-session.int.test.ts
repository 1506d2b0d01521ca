// Live updates with real sessions: a stream opened while signed in ends once its owner signs out
// (the session is read again before anything is sent), and delivers nothing after.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryNotifier, type ProjectionNotifier } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { addWebsiteAs, buildTestApi, registerOwner, type TestApi } from '../testing/api-app';

let db: TestDatabase;
let api: TestApi;
let notifier: ProjectionNotifier;
let baseUrl: string;

beforeAll(async () => {
  db = await createTestDatabase('live_session');
  notifier = createMemoryNotifier();
  api = await buildTestApi(db.pool, { notifier, liveUpdates: { coalesceMs: 20, recheckMs: 0, heartbeatMs: 60_000 } });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await api?.close();
  await notifier?.close();
  await db?.drop();
});

/** Reads `data:` messages from an open stream; resolves `ended` when the server closes it. */
function readStream(body: ReadableStream<Uint8Array>) {
  const messages: unknown[] = [];
  const reader = body.getReader();
  const ended = (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) return;
      buffer += new TextDecoder().decode(value);
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const line of frame.split('\n')) if (line.startsWith('data: ')) messages.push(JSON.parse(line.slice(6)));
      }
    }
  })();
  return { messages, ended };
}

describe('an open live-update stream', () => {
  it('delivers while the owner is signed in, ends when they sign out, and delivers nothing after', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Live shop', 'live.example.com');
    const controller = new AbortController();
    const response = await fetch(`${baseUrl}/api/events`, { headers: { cookie: owner.cookie }, signal: controller.signal });
    expect(response.status).toBe(200);
    const stream = readStream(response.body!);
    try {
      notifier.publish({ projection: 'consent-stats', websiteIds: [website.id] });
      await expect.poll(() => stream.messages.length).toBe(1);

      expect((await owner.request({ method: 'POST', url: '/api/logout' })).statusCode).toBe(200);
      notifier.publish({ projection: 'consent-records', websiteIds: [website.id] });
      await stream.ended; // the server ended it: a stream left open would time this test out
      expect(stream.messages).toEqual([{ type: 'projection-advanced', keys: [['stats'], ['subscription']] }]);
    } finally {
      controller.abort();
    }
    // Signed out, the stream cannot be opened again.
    expect((await fetch(`${baseUrl}/api/events`, { headers: { cookie: owner.cookie } })).status).toBe(401);
  });
});
