// Metrics fixtures for the recommendation tests: a healthy website that triggers no rule, and the
// overrides each test applies to it.
import type { RecommendationMetrics } from './metrics';

type Overrides = Partial<Omit<RecommendationMetrics, 'website'>> & { website?: Partial<RecommendationMetrics['website']> };

export const fixtureWebsiteId = '00000000-0000-4000-8000-000000000001';

/** 1,000 choices at 70%, mobile and desktop alike, banner answered 5 times in 6, installed and active. */
export function metricsWith(overrides: Overrides = {}): RecommendationMetrics {
  const { website, ...rest } = overrides;
  return {
    websiteId: fixtureWebsiteId,
    days: 30,
    today: '2026-06-30',
    consent: { accepted: 700, declined: 300 },
    mobile: { accepted: 280, declined: 120 },
    desktop: { accepted: 420, declined: 180 },
    bySource: { banner: { accepted: 700, declined: 300 }, gpc: { accepted: 0, declined: 0 }, reopened: { accepted: 0, declined: 0 } },
    impressions: 1200,
    bannerChoices: 1000,
    bannerVariants: [],
    currentVariant: null,
    lastEventDay: '2026-06-30',
    purposes: [
      { purpose: 'preferences', offered: 1000, granted: 650 },
      { purpose: 'analytics', offered: 1000, granted: 600 },
      { purpose: 'marketing', offered: 1000, granted: 450 },
    ],
    ...rest,
    scan: rest.scan ?? null,
    website: {
      isActive: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      retentionMonths: 24,
      ipAddressMode: 'truncated',
      privacyPolicyUrl: 'https://shop.example.com/privacy',
      ...website,
    },
  };
}

/** Accepted and declined counts of `total` choices at `rate` percent. */
export function choices(total: number, rate: number) {
  const accepted = Math.round((total * rate) / 100);
  return { accepted, declined: total - accepted };
}
