// Projection-advanced notices between processes without NATS (PostgreSQL LISTEN/NOTIFY), as the
// HTTP workers and the primary of one machine use them: what one publishes every other hears, a
// notice naming more websites than one NOTIFY can carry arrives whole, and a listener whose
// connection was cut hears again once it has reconnected.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, waitFor, type TestDatabase } from '../testing';
import { createPostgresNotifier, type ProjectionAdvanced, type ProjectionNotifier } from './notifier';

let db: TestDatabase;
const notifiers: ProjectionNotifier[] = [];

beforeAll(async () => {
  db = await createTestDatabase('notifier');
});
afterAll(async () => {
  await Promise.all(notifiers.map((notifier) => notifier.close()));
  await db?.drop();
});

async function notifier(channel: string): Promise<ProjectionNotifier> {
  const created = await createPostgresNotifier({ connectionString: db.connectionString, channel });
  notifiers.push(created);
  return created;
}

describe('notices over PostgreSQL', () => {
  it('reach every other process on the channel, and only that channel', async () => {
    const channel = `test.${randomUUID()}`;
    const [primary, worker1, worker2, elsewhere] = await Promise.all([notifier(channel), notifier(channel), notifier(channel), notifier(`other.${randomUUID()}`)]);
    const heard: Record<string, ProjectionAdvanced[]> = { worker1: [], worker2: [], elsewhere: [] };
    worker1.subscribe((notice) => heard.worker1!.push(notice));
    worker2.subscribe((notice) => heard.worker2!.push(notice));
    elsewhere.subscribe((notice) => heard.elsewhere!.push(notice));
    const websiteId = randomUUID();
    primary.publish({ projection: 'consent-stats', websiteIds: [websiteId] });
    await waitFor(async () => heard.worker1!.length === 1 && heard.worker2!.length === 1, { timeoutMs: 10_000, message: 'both workers to hear' });
    expect(heard.worker1).toEqual([{ projection: 'consent-stats', websiteIds: [websiteId] }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.elsewhere).toEqual([]);
  });

  it('carries a notice of 1,000 websites (more than one NOTIFY holds) whole', async () => {
    const channel = `test.${randomUUID()}`;
    const [primary, worker] = await Promise.all([notifier(channel), notifier(channel)]);
    const heard = new Set<string>();
    worker.subscribe((notice) => notice.websiteIds.forEach((id) => heard.add(id)));
    const websiteIds = Array.from({ length: 1000 }, () => randomUUID());
    primary.publish({ projection: 'analytics', websiteIds });
    await waitFor(async () => heard.size === 1000, { timeoutMs: 10_000, message: 'every website to be heard' });
    expect([...heard].sort()).toEqual([...websiteIds].sort());
  });

  it('hears again after its listening connection was cut', async () => {
    const channel = `test.${randomUUID()}`;
    const [primary, worker] = await Promise.all([notifier(channel), notifier(channel)]);
    const heard: ProjectionAdvanced[] = [];
    worker.subscribe((notice) => heard.push(notice));
    const listeners = async () =>
      (await db.pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'consentry notifier listener'`)).rows.map((row) => row.pid);
    const before = await listeners();
    await db.pool.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before]);
    // Every listener is back, on a new connection.
    await waitFor(async () => {
      const now = await listeners();
      return now.length === before.length && now.every((pid) => !before.includes(pid));
    }, { timeoutMs: 15_000, message: 'the listeners to reconnect' });
    // Notices sent while it reconnects may be missed (a refresh comes with the next); one comes through.
    await waitFor(
      async () => {
        primary.publish({ projection: 'consent-records', websiteIds: [randomUUID()] });
        return heard.length > 0;
      },
      { timeoutMs: 15_000, intervalMs: 250, message: 'a notice after reconnecting' },
    );
    expect(heard[0]?.projection).toBe('consent-records');
  });
});
