// The command handler against the real Postgres: it folds the decider's events, appends what the
// decider decided at the version it read (a writer who came in between makes it a ConcurrencyError,
// or a new decision when the stream's last save wins), and appends nothing for a refusal or for no
// events.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandingDecider, websiteDecider, WebsiteNotFoundError, type WebsiteCommand } from '@consentry/events';
import type { Db } from '../db/pool';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { aggregateStream, appendToStream, ConcurrencyError, handleCommand, readStream, type InlineHandler } from './index';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('command_handler');
});
afterAll(async () => {
  await db?.drop();
});

const now = '2026-01-05T10:00:00.000Z';
const ownerId = randomUUID();

async function addWebsite(): Promise<string> {
  const websiteId = randomUUID();
  const add: WebsiteCommand = {
    type: 'AddWebsite',
    data: { websiteId, ownerId, name: 'Shop', domain: 'shop.example.com', embedCode: `emb_${websiteId.slice(0, 8)}`, ownerWebsiteCount: 0, maxWebsites: 5 },
    metadata: { now },
  };
  await handleCommand(db.pool, `website-${websiteId}`, websiteDecider, add);
  return websiteId;
}

const changeTheme = (websiteId: string, bannerTheme: 'dark' | 'light'): WebsiteCommand => ({
  type: 'ChangeWebsiteSettings',
  data: { websiteId, actor: { kind: 'owner', userId: ownerId }, settings: { bannerTheme } },
  metadata: { now },
});

/** The pool, with another writer appending to `streamId` right after each of the first `times` reads of it. */
function withWriterInBetween(streamId: string, times: number): Db {
  let left = times;
  return new Proxy(db.pool, {
    get(pool, property) {
      if (property !== 'query') {
        const value: unknown = Reflect.get(pool, property, pool);
        return typeof value === 'function' ? value.bind(pool) : value;
      }
      return async (query: { name?: string; values?: unknown[] }, ...rest: unknown[]) => {
        const result = await (pool.query as (...args: unknown[]) => Promise<unknown>)(query, ...rest);
        if (query?.name === 'read-stream-version' && query.values?.[0] === streamId && left > 0) {
          left -= 1;
          await appendToStream(pool, streamId, [
            { type: 'BrandingChanged', data: { ownerId, companyName: 'Meanwhile', primaryColor: '#000000', logoUrl: null, changedBy: 'other', changedAt: now } },
          ]);
        }
        return result;
      };
    },
  }) as Db;
}

describe('when a command is decided', () => {
  it('appends the decided events at the version read, with the metadata and inline handlers given', async () => {
    const websiteId = await addWebsite();
    const seen: string[] = [];
    const handler: InlineHandler = { name: 'test-seen', canHandle: ['WebsiteSettingsChanged'], apply: async (events) => void seen.push(...events.map((event) => event.type)) };
    const result = await handleCommand(db.pool, `website-${websiteId}`, websiteDecider, changeTheme(websiteId, 'dark'), {
      metadata: { actor: ownerId },
      inlineProjections: [handler],
    });
    expect(result.nextExpectedVersion).toBe(2);
    expect(result.newEvents.map((event) => [event.type, event.streamVersion, event.metadata])).toEqual([['WebsiteSettingsChanged', 2, { actor: ownerId }]]);
    expect(result.newState).toEqual({ status: 'present', websiteId, ownerId, isActive: true });
    expect(seen).toEqual(['WebsiteSettingsChanged']);
  });

  it('folds only the event types the decider names, up to the version it read', async () => {
    const websiteId = await addWebsite();
    await appendToStream(db.pool, `website-${websiteId}`, [{ type: 'WebsiteActivationChanged', data: { websiteId, isActive: false, changedAt: now } }]);
    expect(await aggregateStream(db.pool, `website-${websiteId}`, websiteDecider)).toEqual({ state: { status: 'present', websiteId, ownerId, isActive: false }, version: 2 });
    expect(await aggregateStream(db.pool, `website-${websiteId}`, brandingDecider)).toEqual({ state: null, version: 2 });
  });
});

describe('when the decider refuses or decides nothing', () => {
  it('appends nothing', async () => {
    const websiteId = await addWebsite();
    await expect(
      handleCommand(db.pool, `website-${randomUUID()}`, websiteDecider, { type: 'RemoveWebsite', data: { websiteId, actor: { kind: 'admin', username: 'root' } }, metadata: { now } }),
    ).rejects.toThrow(WebsiteNotFoundError);
    const nothing: WebsiteCommand = { type: 'ChangeWebsiteSettings', data: { websiteId, actor: { kind: 'admin', username: 'root' }, settings: {} }, metadata: { now } };
    expect(await handleCommand(db.pool, `website-${websiteId}`, websiteDecider, nothing)).toMatchObject({ newEvents: [], nextExpectedVersion: 1 });
    expect(await readStream(db.pool, `website-${websiteId}`)).toHaveLength(1);
  });
});

describe('when another writer appends between the read and the append', () => {
  it('fails with ConcurrencyError and appends nothing of its own', async () => {
    const websiteId = await addWebsite();
    const streamId = `website-${websiteId}`;
    const error = await handleCommand(withWriterInBetween(streamId, 1), streamId, websiteDecider, changeTheme(websiteId, 'dark')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConcurrencyError);
    expect(error).toMatchObject({ expectedVersion: 1, actualVersion: 2 });
    expect((await readStream(db.pool, streamId)).map((event) => event.type)).toEqual(['WebsiteAdded', 'BrandingChanged']);
  });

  it('reads and decides again when asked to, until its retries are used up', async () => {
    const streamId = `branding-${randomUUID()}`;
    const save = { type: 'ChangeBranding', data: { ownerId, settings: { companyName: 'Mine', primaryColor: '#ffffff', logoUrl: null }, changedBy: 'me' }, metadata: { now } } as const;
    const saved = await handleCommand(withWriterInBetween(streamId, 2), streamId, brandingDecider, save, { retriesOnConflict: 2 });
    expect(saved.nextExpectedVersion).toBe(3);
    await expect(handleCommand(withWriterInBetween(streamId, 2), streamId, brandingDecider, save, { retriesOnConflict: 1 })).rejects.toThrow(ConcurrencyError);
  });
});
