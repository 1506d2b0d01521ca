// The inline websites and branding projections: read-your-writes in the append's transaction, and
// replay (while owners keep appending) reproducing exactly what live application built.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandingStreamId } from '@consentry/events';
import { appendToStream, type NewEvent, type NewEventOf } from '@consentry/infra';
import { createTestDatabase, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { findBranding } from '../branding/queries';
import { brandingProjection } from '../branding/projection';
import { replayProjection } from '../runtime/replay';
import { websitesProjection } from './projection';
import { getWebsiteByEmbedCode, listWebsites } from './queries';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('websites', { poolSize: 12 });
});
afterAll(async () => {
  await db?.drop();
});

const inline = { inlineProjections: [websitesProjection, brandingProjection] };
const now = () => new Date().toISOString();

function websiteAdded(ownerId: string, name: string): NewEventOf<'WebsiteAdded'> {
  return {
    type: 'WebsiteAdded',
    data: { websiteId: randomUUID(), ownerId, name, domain: 'shop.example.com', embedCode: randomBytes(12).toString('base64url'), addedAt: now() },
  };
}

async function websitesTable(): Promise<unknown[]> {
  const { rows } = await db.pool.query('SELECT * FROM websites ORDER BY id');
  return rows;
}

describe('when an owner adds a website', () => {
  it('reads it back at once, by owner and by embed code', async () => {
    const ownerId = randomUUID();
    const added = websiteAdded(ownerId, 'Bakery');
    await appendToStream(db.pool, `website-${added.data.websiteId}`, [added], { ...inline, expectedVersion: 'no_stream' });
    const listed = await listWebsites(db.pool, ownerId);
    expect(listed).toEqual([
      expect.objectContaining({ id: added.data.websiteId, name: 'Bakery', isActive: true, retentionMonths: 24, ipAddressMode: 'truncated' }),
    ]);
    expect((await getWebsiteByEmbedCode(db.pool, added.data.embedCode))?.id).toBe(added.data.websiteId);
    expect(await listWebsites(db.pool, randomUUID())).toEqual([]);
  });

  it('changes only the settings an event carries, and forgets a removed website', async () => {
    const added = websiteAdded(randomUUID(), 'Florist');
    const stream = `website-${added.data.websiteId}`;
    const events: NewEvent[] = [
      added,
      { type: 'WebsiteSettingsChanged', data: { websiteId: added.data.websiteId, bannerTheme: 'dark', changedAt: now() } },
      { type: 'WebsiteSettingsChanged', data: { websiteId: added.data.websiteId, retentionMonths: 12, privacyPolicyUrl: 'https://shop.example.com/privacy', changedAt: now() } },
      { type: 'WebsiteActivationChanged', data: { websiteId: added.data.websiteId, isActive: false, changedAt: now() } },
    ];
    await appendToStream(db.pool, stream, events, inline);
    expect(await getWebsiteByEmbedCode(db.pool, added.data.embedCode)).toMatchObject({
      bannerTheme: 'dark',
      bannerPosition: 'bottom',
      retentionMonths: 12,
      privacyPolicyUrl: 'https://shop.example.com/privacy',
      isActive: false,
    });
    await appendToStream(db.pool, stream, [{ type: 'WebsiteRemoved', data: { websiteId: added.data.websiteId, removedAt: now() } }], {
      ...inline,
      expectedVersion: 4,
    });
    expect(await getWebsiteByEmbedCode(db.pool, added.data.embedCode)).toBeNull();
  });
});

describe('when an owner saves branding', () => {
  it('keeps owners and the installation apart', async () => {
    const ownerId = randomUUID();
    const branding = (owner: string | null, companyName: string): NewEvent => ({
      type: 'BrandingChanged',
      data: { ownerId: owner, companyName, primaryColor: '#112233', logoUrl: null, changedBy: 'test', changedAt: now() },
    });
    await appendToStream(db.pool, brandingStreamId(ownerId), [branding(ownerId, 'Owner Co')], inline);
    await appendToStream(db.pool, brandingStreamId(null), [branding(null, 'Installation Co')], inline);
    expect((await findBranding(db.pool, ownerId))?.companyName).toBe('Owner Co');
    expect((await findBranding(db.pool, null))?.companyName).toBe('Installation Co');
    expect(await findBranding(db.pool, randomUUID())).toBeNull();
  });
});

describe('when the websites projection is replayed while owners keep changing websites', () => {
  it('ends with exactly the read model that live application gives', async () => {
    const owners = [randomUUID(), randomUUID()];
    const ids: string[] = [];
    for (let index = 0; index < 40; index++) {
      const added = websiteAdded(owners[index % 2]!, `Site ${index}`);
      ids.push(added.data.websiteId);
      await appendToStream(db.pool, `website-${added.data.websiteId}`, [added], inline);
    }
    const changing = (async () => {
      for (let round = 0; round < 60; round++) {
        const websiteId = ids[round % ids.length]!;
        await appendToStream(
          db.pool,
          `website-${websiteId}`,
          [{ type: 'WebsiteSettingsChanged', data: { websiteId, retentionMonths: 1 + (round % 100), changedAt: now() } }],
          inline,
        );
      }
    })();
    const replays = (async () => {
      for (let round = 0; round < 5; round++) await replayProjection(db.pool, websitesProjection, { batchSize: 7 });
    })();
    await Promise.all([changing, replays]);
    await waitForLogVisible(db.pool);
    const live = await websitesTable();
    await replayProjection(db.pool, websitesProjection);
    expect(await websitesTable()).toEqual(live);
  });
});
