// Each recommendation rule, table-driven: given these metrics, then these recommendations (or none).
// Thresholds are those of docs/recommendations.md; each table has the cases just below and at them.
import { describe, expect, it } from 'vitest';
import type { RecommendationMetrics } from './metrics';
import fc from 'fast-check';
import { deviceClasses } from '@consentry/events';
import { consentRateOf, toRecommendationMetrics, totalOf } from './metrics';
import { buildRecommendationReport } from './queries';
import {
  scanFindings,
  unacceptedPurpose,
  bannerIgnored,
  fullIpAddresses,
  installationMissing,
  installationStopped,
  keepDeclineEqual,
  largeGpcShare,
  lowConsentRate,
  missingPrivacyPolicyLink,
  mobileDesktopGap,
  recommendationRules,
  retentionBeyondPrivacyText,
  runRecommendationRules,
  underperformingBannerVariant,
  type RecommendationDraft,
} from './rules';
import { choices, fixtureWebsiteId, metricsWith } from './testing';

type Expected = ReadonlyArray<Partial<RecommendationDraft>>;
type Case = readonly [string, RecommendationMetrics, Expected];

function table(rule: (metrics: RecommendationMetrics) => readonly RecommendationDraft[], cases: readonly Case[]) {
  it.each(cases)('%s', (_name, metrics, expected) => {
    const output = rule(metrics);
    expect(output).toHaveLength(expected.length);
    expected.forEach((partial, index) => expect(output[index]).toMatchObject(partial));
  });
}

const rated = (total: number, rate: number) => metricsWith({ consent: choices(total, rate) });

describe('the healthy fixture', () => {
  it('triggers no rule', () => {
    expect(runRecommendationRules(metricsWith())).toEqual([]);
  });
});

describe('lowConsentRate', () => {
  table(lowConsentRate, [
    ['too few choices to judge (49 at 10%)', rated(49, 10), []],
    ['exactly 50% is not low', rated(100, 50), []],
    ['49% of 100 choices is low (medium)', rated(100, 49), [{ type: 'consent_rate', severity: 'medium', title: 'Consent rate is low' }]],
    ['29% is very low (high)', rated(100, 29), [{ severity: 'high' }]],
    ['30% is low, not very low', rated(100, 30), [{ severity: 'medium' }]],
  ]);

  it('states the rate, the number of choices and the period', () => {
    expect(lowConsentRate(rated(1200, 25))[0]?.description).toMatch(/^25\.0% of the 1,200 choices in the last 30 days were Accept\./);
  });
});

describe('keepDeclineEqual', () => {
  table(keepDeclineEqual, [
    ['too few choices', rated(49, 10), []],
    ['a healthy rate needs no warning', rated(100, 50), []],
    ['a low rate brings the warning', rated(100, 40), [{ type: 'compliance', severity: 'high', title: 'Keep Reject All as easy as Accept All' }]],
  ]);

  it('names the unlawful fixes only to rule them out', () => {
    const [warning] = keepDeclineEqual(rated(100, 20));
    expect(warning?.description).toContain('Do not respond by hiding Reject All');
    expect(warning?.actionItems).toContain('Never block the site until visitors accept (no cookie walls).');
  });
});

describe('mobileDesktopGap', () => {
  const devices = (mobile: [number, number], desktop: [number, number]) =>
    metricsWith({ mobile: choices(...mobile), desktop: choices(...desktop) });
  table(mobileDesktopGap, [
    ['too few mobile choices', devices([29, 10], [100, 80]), []],
    ['too few desktop choices', devices([100, 10], [29, 80]), []],
    ['a gap under 15 points', devices([100, 41], [100, 55]), []],
    ['a 15-point gap, mobile lower (medium)', devices([100, 40], [100, 55]), [{ type: 'user_experience', severity: 'medium', title: 'Consent rate is lower on mobile' }]],
    ['a 25-point gap (high)', devices([100, 30], [100, 55]), [{ severity: 'high' }]],
    ['desktop lower', devices([100, 70], [100, 50]), [{ title: 'Consent rate is lower on desktop', severity: 'medium' }]],
    ['no mobile choices at all', metricsWith({ mobile: { accepted: 0, declined: 0 } }), []],
  ]);

  it('gives phone-specific actions when mobile is lower', () => {
    const [gap] = mobileDesktopGap(devices([100, 30], [100, 60]));
    expect(gap?.description).toContain('accept 30.0% of the time against 60.0% on desktop (30.0 percentage points apart');
    expect(gap?.actionItems.join(' ')).toContain('phone');
  });
});

describe('bannerIgnored', () => {
  const banner = (impressions: number, bannerChoices: number) => metricsWith({ impressions, bannerChoices });
  table(bannerIgnored, [
    ['no impressions', banner(0, 0), []],
    ['too few impressions (99, none answered)', banner(99, 0), []],
    ['39% ignored', banner(100, 61), []],
    ['40% ignored (medium)', banner(100, 60), [{ type: 'user_experience', severity: 'medium', title: 'Many visitors ignore the banner' }]],
    ['60% ignored (high)', banner(100, 40), [{ severity: 'high' }]],
    ['more answers than impressions (queued answers) is not ignoring', banner(100, 130), []],
  ]);
});

describe('largeGpcShare', () => {
  const gpc = (total: number, gpcDeclines: number) =>
    metricsWith({
      consent: { accepted: total - gpcDeclines - 10, declined: gpcDeclines + 10 },
      bySource: {
        banner: { accepted: total - gpcDeclines - 10, declined: 10 },
        gpc: { accepted: 0, declined: gpcDeclines },
        reopened: { accepted: 0, declined: 0 },
      },
    });
  table(largeGpcShare, [
    ['too few choices', gpc(49, 40), []],
    ['19% GPC', gpc(100, 19), []],
    ['20% GPC (low, legal)', gpc(100, 20), [{ type: 'legal', severity: 'low', title: 'Many visitors send Global Privacy Control' }]],
  ]);

  it('gives the consent rate without GPC refusals', () => {
    expect(largeGpcShare(gpc(100, 20))[0]?.description).toContain('Without them, your consent rate is 87.5%.');
  });
});

describe('installationStopped', () => {
  table(installationStopped, [
    ['events today', metricsWith({ lastEventDay: '2026-06-30' }), []],
    ['last event two days ago', metricsWith({ lastEventDay: '2026-06-28' }), []],
    ['quiet for three days (critical)', metricsWith({ lastEventDay: '2026-06-27' }), [{ type: 'performance', severity: 'critical', title: 'No events received recently' }]],
    ['quiet, but the website is inactive', metricsWith({ lastEventDay: '2026-05-01', website: { isActive: false } }), []],
    ['never had events (another rule)', metricsWith({ lastEventDay: null }), []],
  ]);

  it('says when the last event came', () => {
    expect(installationStopped(metricsWith({ lastEventDay: '2026-06-20' }))[0]?.description).toMatch(/arrived on 2026-06-20, 10 days ago/);
  });
});

describe('installationMissing', () => {
  table(installationMissing, [
    ['never had events, added before today (high)', metricsWith({ lastEventDay: null }), [{ type: 'performance', severity: 'high' }]],
    ['added today', metricsWith({ lastEventDay: null, website: { createdAt: '2026-06-30T08:00:00.000Z' } }), []],
    ['inactive', metricsWith({ lastEventDay: null, website: { isActive: false } }), []],
    ['has events', metricsWith({ lastEventDay: '2026-06-01' }), []],
  ]);
});

describe('retentionBeyondPrivacyText', () => {
  table(retentionBeyondPrivacyText, [
    ['24 months, as the privacy text says', metricsWith({ website: { retentionMonths: 24 } }), []],
    ['12 months', metricsWith({ website: { retentionMonths: 12 } }), []],
    ['25 months (high, legal)', metricsWith({ website: { retentionMonths: 25 } }), [{ type: 'legal', severity: 'high' }]],
    ['120 months', metricsWith({ website: { retentionMonths: 120 } }), [{ description: expect.stringContaining('kept for 120 months') }]],
  ]);
});

describe('fullIpAddresses', () => {
  table(fullIpAddresses, [
    ['truncated', metricsWith({ website: { ipAddressMode: 'truncated' } }), []],
    ['full (medium, compliance)', metricsWith({ website: { ipAddressMode: 'full' } }), [{ type: 'compliance', severity: 'medium', title: 'Full IP addresses are stored' }]],
  ]);
});

describe('missingPrivacyPolicyLink', () => {
  table(missingPrivacyPolicyLink, [
    ['linked', metricsWith(), []],
    ['not linked (medium, legal)', metricsWith({ website: { privacyPolicyUrl: null } }), [{ type: 'legal', severity: 'medium' }]],
  ]);
});

describe('unacceptedPurpose', () => {
  const withPurpose = (offered: number, granted: number) => metricsWith({ purposes: [{ purpose: 'marketing', offered, granted }] });
  table(unacceptedPurpose, [
    ['marketing allowed by 45%', metricsWith(), []],
    ['4.9% of 1,000 (low, user experience)', withPurpose(1000, 49), [{ type: 'user_experience', severity: 'low', title: 'Almost nobody allows Marketing' }]],
    ['5% of 1,000: at the threshold, not below', withPurpose(1000, 50), []],
    ['none of 49 choices: too few to judge', withPurpose(49, 0), []],
    ['none of 50', withPurpose(50, 0), [{ description: expect.stringContaining('0.0% of the visitors asked allowed Marketing') }]],
    ['never offered', withPurpose(0, 0), []],
  ]);
});

describe('scanFindings', () => {
  const scanned = (findings: NonNullable<RecommendationMetrics['scan']>['findings']) => metricsWith({ scan: { completedAt: '2026-06-29T10:00:00.000Z', findings } });
  const ga = { code: 'set_before_consent' as const, subject: '_ga', purpose: 'analytics', platform: 'Google Analytics', pageCount: 12 };
  table(scanFindings, [
    ['no scan yet', metricsWith(), []],
    ['a clean scan', scanned([{ code: 'declared_not_seen', subject: 'old', purpose: null, platform: null, pageCount: 0 }]), []],
    [
      '_ga before consent on 12 pages (critical, compliance)',
      scanned([ga]),
      [{ type: 'compliance', severity: 'critical', title: '_ga is set before consent on 12 pages' }],
    ],
    [
      'after Reject All (high) and the banner missing (medium)',
      scanned([
        { ...ga, code: 'set_after_reject', pageCount: 1 },
        { code: 'banner_missing', subject: null, purpose: null, platform: null, pageCount: 3 },
      ]),
      [
        { severity: 'high', title: '_ga stays after Reject All on 1 page' },
        { severity: 'medium', title: 'The banner is missing on 3 pages' },
      ],
    ],
  ]);

  it('gives the exact snippet change for the purpose of what it found', () => {
    const [draft] = scanFindings(scanned([ga]));
    expect(draft?.actionItems[0]).toBe(
      'Load Google Analytics through a blocked script tag, so it runs only once analytics is allowed: <script type="text/plain" data-consentry-category="analytics" src="…"></script> (keep its own src).',
    );
  });
});

describe('underperformingBannerVariant', () => {
  const variant = (position: 'bottom' | 'top', theme: 'light' | 'dark', impressions: number, answers: number) => ({
    position,
    theme,
    days: 10,
    impressions,
    answers,
    accepted: Math.round(answers / 2),
  });
  const current = { position: 'bottom', theme: 'light' } as const;
  table(underperformingBannerVariant, [
    ['one variant only', metricsWith({ currentVariant: current, bannerVariants: [variant('bottom', 'light', 1000, 500)] }), []],
    [
      'the other variant has too few impressions',
      metricsWith({ currentVariant: current, bannerVariants: [variant('bottom', 'light', 1000, 500), variant('top', 'dark', 299, 299)] }),
      [],
    ],
    [
      'the current one has too few impressions',
      metricsWith({ currentVariant: current, bannerVariants: [variant('bottom', 'light', 299, 10), variant('top', 'dark', 1000, 900)] }),
      [],
    ],
    [
      'a 9.9-point gap',
      metricsWith({ currentVariant: current, bannerVariants: [variant('bottom', 'light', 1000, 500), variant('top', 'dark', 1000, 599)] }),
      [],
    ],
    [
      'a 10-point gap (low)',
      metricsWith({ currentVariant: current, bannerVariants: [variant('bottom', 'light', 1000, 500), variant('top', 'dark', 1000, 600)] }),
      [{ type: 'performance', severity: 'low', title: 'Try the banner at the top with the dark theme' }],
    ],
    [
      'a 20-point gap, best of three (medium)',
      metricsWith({
        currentVariant: current,
        bannerVariants: [variant('bottom', 'light', 1000, 500), variant('top', 'dark', 1000, 650), variant('top', 'light', 400, 300)],
      }),
      [{ severity: 'medium', title: 'Try the banner at the top with the light theme' }],
    ],
    [
      'the current one is the best',
      metricsWith({ currentVariant: current, bannerVariants: [variant('bottom', 'light', 1000, 900), variant('top', 'dark', 1000, 500)] }),
      [],
    ],
    ['no current variant known', metricsWith({ currentVariant: null, bannerVariants: [variant('bottom', 'light', 1000, 100), variant('top', 'dark', 1000, 900)] }), []],
  ]);
});

describe('the engine', () => {
  const everythingWrong = metricsWith({
    consent: { accepted: 20, declined: 80 },
    mobile: choices(40, 10),
    desktop: choices(40, 45),
    bySource: { banner: { accepted: 20, declined: 50 }, gpc: { accepted: 0, declined: 30 }, reopened: { accepted: 0, declined: 0 } },
    impressions: 400,
    bannerChoices: 70,
    lastEventDay: '2026-06-01',
    website: { retentionMonths: 36, ipAddressMode: 'full', privacyPolicyUrl: null },
  });

  it('sorts by priority: severity first, then the rule order, with stable ids per rule and website', () => {
    const output = runRecommendationRules(everythingWrong);
    expect(output.map((recommendation) => [recommendation.id, recommendation.priority])).toEqual([
      [`installation-stopped:${fixtureWebsiteId}`, 101],
      [`keep-decline-equal:${fixtureWebsiteId}`, 203],
      [`retention-beyond-privacy-text:${fixtureWebsiteId}`, 204],
      [`low-consent-rate:${fixtureWebsiteId}`, 206],
      [`mobile-desktop-gap:${fixtureWebsiteId}`, 207],
      [`banner-ignored:${fixtureWebsiteId}`, 208],
      [`full-ip-addresses:${fixtureWebsiteId}`, 305],
      [`missing-privacy-policy-link:${fixtureWebsiteId}`, 309],
      [`large-gpc-share:${fixtureWebsiteId}`, 410],
    ]);
    expect(runRecommendationRules(everythingWrong)).toEqual(output);
  });

  it('has unique rule ids', () => {
    const ids = recommendationRules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('toRecommendationMetrics', () => {
  const website = {
    id: fixtureWebsiteId,
    ownerId: fixtureWebsiteId,
    name: 'Shop',
    domain: 'shop.example.com',
    embedCode: 'embed-code-1',
    isActive: true,
    retentionMonths: 24,
    ipAddressMode: 'truncated' as const,
    bannerPosition: 'bottom' as const,
    bannerTheme: 'light' as const,
    policyVersion: '1',
    privacyPolicyUrl: null,
    purposes: ['preferences', 'analytics', 'marketing'] as const,
    services: [],
    consentLifetimeMonths: 12,
    defaultLanguage: 'en' as const,
    textOverrides: {},
    regionRules: {},
    forceOptIn: false,
    scanIntervalDays: 30,
    identificationForms: 'all' as const,
    monthlyResolutionCap: null,
    keepPageQueryStrings: false,
    createdAt: '2026-01-01T00:00:00.000Z',
  };

  it('measures each banner variant on the days it was shown alone, and groups choices by device and source', () => {
    const metrics = toRecommendationMetrics({
      website,
      days: 7,
      today: '2026-06-30',
      dimensions: [
        { deviceClass: 'mobile', source: 'banner', accepted: 3, declined: 1 },
        { deviceClass: 'tablet', source: 'banner', accepted: 1, declined: 1 },
        { deviceClass: 'desktop', source: 'gpc', accepted: 0, declined: 2 },
        { deviceClass: 'desktop', source: 'banner', accepted: 5, declined: 0 },
      ],
      impressions: [
        { day: '2026-06-27', position: 'bottom', theme: 'light', impressions: 10 },
        { day: '2026-06-28', position: 'bottom', theme: 'light', impressions: 5 },
        { day: '2026-06-28', position: 'top', theme: 'dark', impressions: 5 },
        { day: '2026-06-29', position: 'top', theme: 'dark', impressions: 8 },
      ],
      bannerChoices: [
        { day: '2026-06-27', accepted: 4, declined: 2 },
        { day: '2026-06-28', accepted: 3, declined: 0 },
        { day: '2026-06-29', accepted: 2, declined: 0 },
      ],
      lastEventDay: '2026-06-29',
    });
    expect(metrics).toMatchObject({
      consent: { accepted: 9, declined: 4 },
      mobile: { accepted: 4, declined: 2 }, // phones and tablets
      desktop: { accepted: 5, declined: 2 },
      bySource: { banner: { accepted: 9, declined: 2 }, gpc: { accepted: 0, declined: 2 } },
      impressions: 28,
      bannerChoices: 11,
      bannerVariants: [
        { position: 'bottom', theme: 'light', days: 1, impressions: 10, answers: 6, accepted: 4 },
        { position: 'top', theme: 'dark', days: 1, impressions: 8, answers: 2, accepted: 2 },
      ],
      currentVariant: { position: 'top', theme: 'dark' },
      lastEventDay: '2026-06-29',
    });
  });

  it('puts every choice in exactly one device group, so the device rates weighted by their choices give the overall rate', () => {
    const row = fc.record({
      deviceClass: fc.constantFrom(...deviceClasses),
      source: fc.constantFrom('banner' as const, 'gpc' as const, 'reopened' as const),
      accepted: fc.nat({ max: 500 }),
      declined: fc.nat({ max: 500 }),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), (dimensions) => {
        const metrics = toRecommendationMetrics({ website, days: 30, today: '2026-06-30', dimensions, impressions: [], bannerChoices: [], lastEventDay: null });
        expect(totalOf(metrics.mobile) + totalOf(metrics.desktop)).toBe(totalOf(metrics.consent));
        expect(metrics.mobile.accepted + metrics.desktop.accepted).toBe(metrics.consent.accepted);
        const overall = consentRateOf(metrics.consent);
        if (overall === null) return;
        const weighted = ((consentRateOf(metrics.mobile) ?? 0) * totalOf(metrics.mobile) + (consentRateOf(metrics.desktop) ?? 0) * totalOf(metrics.desktop)) / totalOf(metrics.consent);
        expect(weighted).toBeCloseTo(overall, 9);
      }),
    );
  });

  it('reports two desktop browsers, one accepting and one declining, as 50% overall and 50% on desktop', () => {
    const metrics = toRecommendationMetrics({
      website,
      days: 7,
      today: '2026-06-30',
      dimensions: [{ deviceClass: 'desktop', source: 'banner', accepted: 1, declined: 1 }],
      impressions: [],
      bannerChoices: [],
      lastEventDay: null,
    });
    expect(buildRecommendationReport(metrics)).toMatchObject({ consentRate: 50, desktopConsentRate: 50, mobileConsentRate: 0, totalConsents: 2 });
  });
});
