// The monthly resolution cap in the inline websites read model (docs/identification.md, "Limits"):
// unlimited until the owner sets one, kept through changes of other settings, unlimited again when
// set to null.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { projectionSpec } from '../testing/projection-spec';
import { websitesProjection } from './projection';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('resolution_cap');
});
afterAll(async () => {
  await db?.drop();
});

describe('when an owner caps the resolutions of a website', () => {
  it('stores the cap, keeps it through other changes, and lifts it with null', async () => {
    const websites = projectionSpec(websitesProjection, db.pool);
    const websiteId = randomUUID();
    const changedAt = new Date().toISOString();
    const cap = 'SELECT monthly_resolution_cap AS cap FROM websites WHERE id = $1';
    await websites
      .given([
        {
          type: 'WebsiteAdded',
          data: { websiteId, ownerId: randomUUID(), name: 'Shop', domain: 'shop.example.com', embedCode: randomBytes(12).toString('base64url'), addedAt: changedAt },
        },
      ])
      .thenRows(cap, [websiteId], [{ cap: null }]);
    await websites.given([{ type: 'WebsiteSettingsChanged', data: { websiteId, monthlyResolutionCap: 250, changedAt } }]).thenRows(cap, [websiteId], [{ cap: 250 }]);
    await websites.given([{ type: 'WebsiteSettingsChanged', data: { websiteId, bannerTheme: 'dark', changedAt } }]).thenRows(cap, [websiteId], [{ cap: 250 }]);
    await websites.given([{ type: 'WebsiteSettingsChanged', data: { websiteId, monthlyResolutionCap: null, changedAt } }]).thenRows(cap, [websiteId], [{ cap: null }]);
  });
});
