// The monthly resolution cap in the inline websites read model (docs/identification.md, "Limits"):
// unlimited until the owner sets one, kept through changes of other settings, unlimited again when
// set to null.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream, type NewEvent } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { websitesProjection } from './projection';
import { getWebsite } from './queries';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('resolution_cap');
});
afterAll(async () => {
  await db?.drop();
});

describe('when an owner caps the resolutions of a website', () => {
  it('stores the cap, keeps it through other changes, and lifts it with null', async () => {
    const websiteId = randomUUID();
    const changedAt = new Date().toISOString();
    const capOf = async () => (await getWebsite(db.pool, websiteId))?.monthlyResolutionCap;
    const append = (events: NewEvent[]) => appendToStream(db.pool, `website-${websiteId}`, events, { inlineProjections: [websitesProjection] });
    await append([
      {
        type: 'WebsiteAdded',
        data: { websiteId, ownerId: randomUUID(), name: 'Shop', domain: 'shop.example.com', embedCode: randomBytes(12).toString('base64url'), addedAt: changedAt },
      },
    ]);
    expect(await capOf()).toBeNull();
    await append([{ type: 'WebsiteSettingsChanged', data: { websiteId, monthlyResolutionCap: 250, changedAt } }]);
    expect(await capOf()).toBe(250);
    await append([{ type: 'WebsiteSettingsChanged', data: { websiteId, bannerTheme: 'dark', changedAt } }]);
    expect(await capOf()).toBe(250);
    await append([{ type: 'WebsiteSettingsChanged', data: { websiteId, monthlyResolutionCap: null, changedAt } }]);
    expect(await capOf()).toBeNull();
  });
});
