// A consent receipt names every purpose the banner offered, the identification purpose included, with
// the words the visitor read for it (from the texts published under the choice's hash), so the proof
// of a lead's consent shows what they agreed to be identified under.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerTextsEventId, bannerTextsStreamId, canonicalBannerTexts, shippedTexts, type BannerTexts } from '@consentry/events';
import { appendToStream, createGroupCommitAppender } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { addWebsiteAs, buildTestApi, registerOwner, type SignedInUser, type TestApi } from '../testing/api-app';

let db: TestDatabase;
let api: TestApi;
let owner: SignedInUser;
let stranger: SignedInUser;
let website: { id: string };

beforeAll(async () => {
  db = await createTestDatabase('api_receipts', { poolSize: 6 });
  api = await buildTestApi(db.pool);
  owner = await registerOwner(api.app);
  stranger = await registerOwner(api.app);
  website = await addWebsiteAs(owner, 'Lead shop', 'leads.example.com');
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

/** Publishes texts as the widget config does and records one choice made under them. */
async function choose(texts: BannerTexts | null, offered: string[], granted: string[]): Promise<string> {
  let textsHash: string | null = null;
  if (texts) {
    textsHash = createHash('sha256').update(canonicalBannerTexts('en', texts, 'Lead shop')).digest('hex');
    await appendToStream(db.pool, bannerTextsStreamId(textsHash), [
      { eventId: bannerTextsEventId(textsHash), type: 'BannerTextsPublished', data: { textsHash, language: 'en', companyName: 'Lead shop', texts, publishedAt: new Date().toISOString() } },
    ]);
  }
  const request = consentAppendRequest({ websiteId: website.id, visitorId: randomUUID() });
  const purposes = { preferences: false, analytics: false, marketing: false, identification: false, ...Object.fromEntries(granted.map((purpose) => [purpose, true])) };
  const data = { ...(request.event.data as object), offered, purposes, method: 'custom', textsHash };
  const appender = createGroupCommitAppender(db.pool);
  try {
    await appender.append({ ...request, event: { ...request.event, data } as typeof request.event });
  } finally {
    await appender.close();
  }
  return request.event.eventId!;
}

describe('the receipt of a choice on a banner that offers identification', () => {
  it('names the identification purpose, whether it was granted, and the wording the visitor read', async () => {
    const texts = { ...shippedTexts.en, identification: 'Recognise me', identificationDescription: 'Lead shop may learn who you are from the forms you send.' };
    const consentId = await choose(texts, ['analytics', 'identification'], ['identification']);
    const response = await owner.request({ method: 'GET', url: `/api/consents/${consentId}/receipt` });
    expect(response.statusCode).toBe(200);
    const receipt = response.json();
    expect(receipt.consent.purposes).toEqual([
      { purpose: 'Strictly necessary storage (remembering this choice)', granted: true, shownAs: { name: texts.necessary, description: texts.necessaryDescription } },
      { purpose: 'Analytics cookies and scripts', granted: false, shownAs: { name: texts.analytics, description: texts.analyticsDescription } },
      {
        purpose: 'Identification of the visitor as a business lead',
        granted: true,
        shownAs: { name: 'Recognise me', description: 'Lead shop may learn who you are from the forms you send.' },
      },
    ]);
    expect(receipt.notice.texts).toMatchObject({ identification: 'Recognise me' });
  });

  it('leaves the wording out for a choice recorded without published texts, and shows no purpose that was not offered', async () => {
    const consentId = await choose(null, ['analytics', 'marketing'], ['analytics']);
    const receipt = (await owner.request({ method: 'GET', url: `/api/consents/${consentId}/receipt` })).json();
    expect(receipt.consent.purposes.map((entry: { purpose: string; shownAs: unknown }) => [entry.purpose, entry.shownAs])).toEqual([
      ['Strictly necessary storage (remembering this choice)', null],
      ['Analytics cookies and scripts', null],
      ['Marketing cookies and scripts', null],
    ]);
  });

  it('is the owner’s to see: 404 for a stranger', async () => {
    const consentId = await choose(null, ['identification'], ['identification']);
    expect((await stranger.request({ method: 'GET', url: `/api/consents/${consentId}/receipt` })).statusCode).toBe(404);
  });
});
