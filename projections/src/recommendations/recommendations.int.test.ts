// The recommendation report from real events through the real read models: a website whose banner
// is mostly refused, ignored and lower on mobile, with long retention and full IP addresses, that
// stopped sending events; and the all-websites variant.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream, type NewEvent } from '@consentry/infra';
import { createTestDatabase, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { at, bannerShown, visitor } from '../analytics/testing';
import { consentDimensionsProjection } from '../consent-dimensions/projection';
import { replayProjection } from '../runtime/replay';
import { websiteActivityProjection } from '../website-activity/projection';
import { websitesProjection } from '../websites/projection';
import { getAllRecommendationReports, getRecommendationReport } from './queries';

let db: TestDatabase;
const struggling = randomUUID();
const fresh = randomUUID();
const day0 = '2026-04-10T08:00:00.000Z';

async function addWebsite(websiteId: string, name: string, settings: Partial<{ retentionMonths: number; ipAddressMode: 'full' | 'truncated' }> = {}) {
  const events: NewEvent[] = [
    {
      type: 'WebsiteAdded',
      data: { websiteId, ownerId: randomUUID(), name, domain: 'shop.example.com', embedCode: randomBytes(12).toString('base64url'), addedAt: '2026-04-01T00:00:00.000Z' },
    },
  ];
  if (Object.keys(settings).length > 0) {
    events.push({ type: 'WebsiteSettingsChanged', data: { websiteId, ...settings, changedAt: '2026-04-01T00:00:00.000Z' } });
  }
  await appendToStream(db.pool, `website-${websiteId}`, events, { inlineProjections: [websitesProjection] });
}

beforeAll(async () => {
  db = await createTestDatabase('recommendations', { poolSize: 6 });
  await addWebsite(struggling, 'Struggling shop', { retentionMonths: 36, ipAddressMode: 'full' });
  await addWebsite(fresh, 'Fresh shop');

  const events: NewEvent[] = [];
  for (let i = 0; i < 200; i++) events.push(bannerShown(struggling, at(day0, i), { deviceClass: i % 2 === 0 ? 'mobile' : 'desktop' }));
  // First-banner choices: mobile 5 of 30 accepted, desktop 15 of 30.
  for (let i = 0; i < 30; i++) {
    events.push(visitor(struggling).choose(i < 5 ? 'accepted' : 'declined', at(day0, 2 * i), { deviceClass: 'mobile' }));
    events.push(visitor(struggling).choose(i < 15 ? 'accepted' : 'declined', at(day0, 2 * i + 1), { deviceClass: 'desktop' }));
  }
  // Browsers sending Global Privacy Control: 20 automatic refusals.
  for (let i = 0; i < 20; i++) events.push(visitor(struggling).choose('declined', at(day0, 100 + i), { source: 'gpc', deviceClass: 'tablet' }));
  const reader = visitor(struggling);
  events.push(reader.view('/', at(day0, 130)));
  await appendToStream(db.pool, `test-${randomUUID()}`, events);

  await waitForLogVisible(db.pool);
  await replayProjection(db.pool, consentDimensionsProjection);
  await replayProjection(db.pool, websiteActivityProjection);
});
afterAll(async () => {
  await db?.drop();
});

describe('when a website refuses, ignores and then stops sending', () => {
  it('reports its rates and the recommendations, most urgent first', async () => {
    const report = await getRecommendationReport(db.pool, { websiteId: struggling, days: 30, now: new Date('2026-04-15T12:00:00.000Z') });
    expect(report).toMatchObject({ consentRate: 25, totalConsents: 80, mobileConsentRate: 10, desktopConsentRate: 50 }); // mobile: 30 phones and 20 tablets, 5 accepted
    expect(report!.recommendations.map((recommendation) => [recommendation.id, recommendation.severity, recommendation.priority])).toEqual([
      [`installation-stopped:${struggling}`, 'critical', 101],
      [`keep-decline-equal:${struggling}`, 'high', 203],
      [`retention-beyond-privacy-text:${struggling}`, 'high', 204],
      [`low-consent-rate:${struggling}`, 'high', 206],
      [`mobile-desktop-gap:${struggling}`, 'high', 207],
      [`banner-ignored:${struggling}`, 'high', 208],
      [`full-ip-addresses:${struggling}`, 'medium', 305],
      [`missing-privacy-policy-link:${struggling}`, 'medium', 309],
      [`large-gpc-share:${struggling}`, 'low', 410],
    ]);
    const byId = new Map(report!.recommendations.map((recommendation) => [recommendation.id.split(':')[0], recommendation]));
    expect(byId.get('installation-stopped')?.description).toContain('arrived on 2026-04-10, 5 days ago');
    expect(byId.get('banner-ignored')?.description).toContain('70.0% of the 200 banner impressions');
    expect(byId.get('large-gpc-share')?.description).toContain('Without them, your consent rate is 33.3%.');
    expect(byId.get('mobile-desktop-gap')?.title).toBe('Consent rate is lower on mobile');
  });

  it('counts only the days of the period', async () => {
    const report = await getRecommendationReport(db.pool, { websiteId: struggling, days: 7, now: new Date('2026-05-30T12:00:00.000Z') });
    expect(report).toMatchObject({ consentRate: 0, totalConsents: 0, mobileConsentRate: 0, desktopConsentRate: 0 });
    expect(report!.recommendations.map((recommendation) => recommendation.id.split(':')[0])).toEqual([
      'installation-stopped',
      'retention-beyond-privacy-text',
      'full-ip-addresses',
      'missing-privacy-policy-link',
    ]);
  });

  it('gives null for a website that does not exist', async () => {
    expect(await getRecommendationReport(db.pool, { websiteId: randomUUID(), days: 30, now: new Date() })).toBeNull();
  });
});

describe('the all-websites variant', () => {
  it('reports every existing website in the order asked, skipping unknown ids', async () => {
    const reports = await getAllRecommendationReports(db.pool, { websiteIds: [fresh, randomUUID(), struggling], now: new Date('2026-04-11T12:00:00.000Z') });
    expect(reports.map(({ website, consentRate, totalConsents }) => ({ website, consentRate, totalConsents }))).toEqual([
      { website: { id: fresh, name: 'Fresh shop', domain: 'shop.example.com' }, consentRate: 0, totalConsents: 0 },
      { website: { id: struggling, name: 'Struggling shop', domain: 'shop.example.com' }, consentRate: 25, totalConsents: 80 },
    ]);
    expect(reports[0]!.recommendations.map((recommendation) => recommendation.id)).toEqual([
      `installation-missing:${fresh}`,
      `missing-privacy-policy-link:${fresh}`,
    ]);
    // One day after the last event: not yet "stopped".
    expect(reports[1]!.recommendations.map((recommendation) => recommendation.id)).not.toContain(`installation-stopped:${struggling}`);
  });
});
