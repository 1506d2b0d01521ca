// The lead identification setting in the inline websites read model: which forms identify a visitor
// (all by default, or only marked ones), kept until a later change names it again.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream, type NewEvent } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
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
    const websiteId = randomUUID();
    const changedAt = new Date().toISOString();
    const formsOf = async () => (await db.pool.query<{ mode: string }>('SELECT identification_forms AS mode FROM websites WHERE id = $1', [websiteId])).rows[0]?.mode;
    const append = (events: NewEvent[]) => appendToStream(db.pool, `website-${websiteId}`, events, { inlineProjections: [websitesProjection] });
    await append([
      {
        type: 'WebsiteAdded',
        data: { websiteId, ownerId: randomUUID(), name: 'Shop', domain: 'shop.example.com', embedCode: randomBytes(12).toString('base64url'), addedAt: changedAt },
      },
    ]);
    expect(await formsOf()).toBe('all');
    await append([{ type: 'WebsiteSettingsChanged', data: { websiteId, identificationForms: 'marked', changedAt } }]);
    expect(await formsOf()).toBe('marked');
    await append([{ type: 'WebsiteSettingsChanged', data: { websiteId, bannerTheme: 'dark', changedAt } }]);
    expect(await formsOf()).toBe('marked');
  });
});
