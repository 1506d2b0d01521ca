// The lead identification setting in the inline websites read model: which forms identify a visitor
// (all by default, or only marked ones), kept until a later change names it again.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { projectionSpec } from '../testing/projection-spec';
import { websitesProjection } from './projection';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('identification_forms');
});
afterAll(async () => {
  await db?.drop();
});

describe('when an owner chooses which forms identify visitors', () => {
  it('stores the choice and keeps it through changes of other settings', async () => {
    const websites = projectionSpec(websitesProjection, db.pool);
    const websiteId = randomUUID();
    const changedAt = new Date().toISOString();
    const forms = 'SELECT identification_forms AS mode FROM websites WHERE id = $1';
    await websites
      .given([
        {
          type: 'WebsiteAdded',
          data: { websiteId, ownerId: randomUUID(), name: 'Shop', domain: 'shop.example.com', embedCode: randomBytes(12).toString('base64url'), addedAt: changedAt },
        },
      ])
      .thenRows(forms, [websiteId], [{ mode: 'all' }]);
    await websites.given([{ type: 'WebsiteSettingsChanged', data: { websiteId, identificationForms: 'marked', changedAt } }]).thenRows(forms, [websiteId], [{ mode: 'marked' }]);
    await websites.given([{ type: 'WebsiteSettingsChanged', data: { websiteId, bannerTheme: 'dark', changedAt } }]).thenRows(forms, [websiteId], [{ mode: 'marked' }]);
  });
});
