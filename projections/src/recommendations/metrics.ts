// The metrics the recommendation rules read, and how they are built from the read models (consent
// dimensions, banner impressions, website activity, websites). Building is split in two: the queries
// gather rows, and `toRecommendationMetrics` turns rows into metrics without I/O, so the derived
// figures (banner variants on single-variant days, device groups) are unit-testable.
import type { BannerPosition, BannerTheme, ConsentSource, FindingCode, IpAddressMode, OptionalPurpose } from '@consentry/events';
import type { Queryable } from '@consentry/infra';
import type { AnalyticsRange } from '../analytics/queries';
import {
  getConsentCountsByDimension,
  getDailyBannerChoices,
  getDailyBannerImpressions,
  type ConsentDimensionCounts,
  type DailyBannerImpressions,
  type DailyChoices,
} from '../consent-dimensions/queries';
import { getLastEventAt } from '../website-activity/projection';
import { getPurposeSummary } from '../consent-purposes/queries';
import { getLatestScanReport } from '../scans/queries';
import type { Website } from '../websites/queries';

export interface ChoiceCounts {
  readonly accepted: number;
  readonly declined: number;
}

/** One banner position + theme, measured on the days it was the only one shown. */
export interface BannerVariantMetrics {
  readonly position: BannerPosition;
  readonly theme: BannerTheme;
  readonly days: number;
  readonly impressions: number;
  /** First-banner choices (source 'banner') on those days, accepted or declined. */
  readonly answers: number;
  readonly accepted: number;
}

export interface RecommendationMetrics {
  readonly websiteId: string;
  /** Length of the period in days (7, 30 or 90) and its last day (UTC, today). */
  readonly days: number;
  readonly today: string;
  /** Every choice in the period, all sources and devices. */
  readonly consent: ChoiceCounts;
  /**
   * The two device groups partition `consent`, so their rates weighted by their choices give the
   * overall rate: mobile is phones and tablets (handheld screens); desktop is every other choice
   * (desktop browsers, and the few without or with an unrecognised user agent, and self-declared bots).
   */
  readonly mobile: ChoiceCounts;
  readonly desktop: ChoiceCounts;
  /** Choices per source; a source with none may be absent. */
  readonly bySource: Readonly<Partial<Record<ConsentSource, ChoiceCounts>>>;
  /** Banner impressions in the period, and choices made in that first banner. */
  readonly impressions: number;
  readonly bannerChoices: number;
  readonly bannerVariants: readonly BannerVariantMetrics[];
  /** The variant shown on the latest day with impressions, when only one was shown that day. */
  readonly currentVariant: { readonly position: BannerPosition; readonly theme: BannerTheme } | null;
  /** UTC day the ledger last received any event of the website (website-activity); null if never. */
  readonly lastEventDay: string | null;
  /** The latest completed cookie scan's findings (null before the first scan), with each item's purpose and platform. */
  readonly scan: {
    readonly completedAt: string;
    readonly findings: readonly {
      readonly code: FindingCode;
      readonly subject: string | null;
      readonly purpose: string | null;
      readonly platform: string | null;
      readonly pageCount: number;
    }[];
  } | null;
  /** Per purpose, in the period: the choices that offered it and those that granted it. */
  readonly purposes: readonly { readonly purpose: OptionalPurpose; readonly offered: number; readonly granted: number }[];
  readonly website: {
    readonly isActive: boolean;
    readonly createdAt: string;
    readonly retentionMonths: number;
    readonly ipAddressMode: IpAddressMode;
    readonly privacyPolicyUrl: string | null;
  };
}

export const noChoices: ChoiceCounts = { accepted: 0, declined: 0 };
const add = (a: ChoiceCounts, b: ChoiceCounts): ChoiceCounts => ({ accepted: a.accepted + b.accepted, declined: a.declined + b.declined });

/** Accepted share of the choices, in percent; null when there are none. */
export function consentRateOf(counts: ChoiceCounts): number | null {
  const total = counts.accepted + counts.declined;
  return total === 0 ? null : (counts.accepted / total) * 100;
}

export const totalOf = (counts: ChoiceCounts) => counts.accepted + counts.declined;

/** `YYYY-MM-DD` of `day` moved by `delta` days. */
export function addDays(day: string, delta: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + delta * 86_400_000).toISOString().slice(0, 10);
}

export interface RecommendationInputs {
  readonly website: Website;
  readonly days: number;
  readonly today: string;
  readonly dimensions: readonly ConsentDimensionCounts[];
  readonly impressions: readonly DailyBannerImpressions[];
  readonly bannerChoices: readonly DailyChoices[];
  readonly lastEventDay: string | null;
  readonly purposes?: RecommendationMetrics['purposes'];
  readonly scan?: RecommendationMetrics['scan'];
}

/** Rows → metrics. Pure. */
export function toRecommendationMetrics(inputs: RecommendationInputs): RecommendationMetrics {
  let consent = noChoices;
  let mobile = noChoices;
  let desktop = noChoices;
  const bySource: Partial<Record<ConsentSource, ChoiceCounts>> = {};
  for (const row of inputs.dimensions) {
    consent = add(consent, row);
    bySource[row.source] = add(bySource[row.source] ?? noChoices, row);
    if (row.deviceClass === 'mobile' || row.deviceClass === 'tablet') mobile = add(mobile, row);
    else desktop = add(desktop, row);
  }

  const impressionsByDay = new Map<string, DailyBannerImpressions[]>();
  let impressions = 0;
  for (const row of inputs.impressions) {
    impressions += row.impressions;
    const rows = impressionsByDay.get(row.day);
    if (rows) rows.push(row);
    else impressionsByDay.set(row.day, [row]);
  }
  const choicesByDay = new Map(inputs.bannerChoices.map((row) => [row.day, row]));
  // Choices do not say which banner variant they answered, so a variant is measured only on days
  // when it was the only one shown (docs/recommendations.md, "Banner variants").
  const variants = new Map<string, { position: BannerPosition; theme: BannerTheme; days: number; impressions: number; answers: number; accepted: number }>();
  for (const [day, rows] of impressionsByDay) {
    const only = rows.length === 1 ? rows[0] : undefined;
    if (only === undefined) continue;
    const key = `${only.position}/${only.theme}`;
    let variant = variants.get(key);
    if (!variant) variants.set(key, (variant = { position: only.position, theme: only.theme, days: 0, impressions: 0, answers: 0, accepted: 0 }));
    const choices = choicesByDay.get(day) ?? { accepted: 0, declined: 0 };
    variant.days++;
    variant.impressions += only.impressions;
    variant.answers += choices.accepted + choices.declined;
    variant.accepted += choices.accepted;
  }
  const latestDay = [...impressionsByDay.keys()].sort().at(-1);
  const latestRows = latestDay === undefined ? [] : impressionsByDay.get(latestDay)!;
  const latestOnly = latestRows.length === 1 ? latestRows[0] : undefined;

  return {
    websiteId: inputs.website.id,
    days: inputs.days,
    today: inputs.today,
    consent,
    mobile,
    desktop,
    bySource,
    impressions,
    bannerChoices: totalOf(bySource.banner ?? noChoices),
    bannerVariants: [...variants.values()].sort((a, b) => `${a.position}/${a.theme}`.localeCompare(`${b.position}/${b.theme}`)),
    currentVariant: latestOnly ? { position: latestOnly.position, theme: latestOnly.theme } : null,
    lastEventDay: inputs.lastEventDay,
    purposes: inputs.purposes ?? [],
    scan: inputs.scan ?? null,
    website: {
      isActive: inputs.website.isActive,
      createdAt: inputs.website.createdAt,
      retentionMonths: inputs.website.retentionMonths,
      ipAddressMode: inputs.website.ipAddressMode,
      privacyPolicyUrl: inputs.website.privacyPolicyUrl,
    },
  };
}

/** Gathers the rows for one website's metrics over the `days` UTC days ending with `now`'s day. */
export async function gatherRecommendationMetrics(
  db: Queryable,
  website: Website,
  options: { readonly days: number; readonly now: Date },
): Promise<RecommendationMetrics> {
  const today = options.now.toISOString().slice(0, 10);
  const range: AnalyticsRange = { websiteId: website.id, fromDay: addDays(today, -(options.days - 1)), toDay: today };
  const [dimensions, impressions, bannerChoices, lastEventAt, purposeSummary, latestScan] = await Promise.all([
    getConsentCountsByDimension(db, range),
    getDailyBannerImpressions(db, range),
    getDailyBannerChoices(db, range),
    getLastEventAt(db, website.id),
    getPurposeSummary(db, { websiteIds: [website.id], fromDay: range.fromDay, toDay: range.toDay }),
    getLatestScanReport(db, website.id),
  ]);
  const lastEventDay = lastEventAt === null ? null : lastEventAt.slice(0, 10);
  const purposes = purposeSummary.purposes.map(({ purpose, offered, granted }) => ({ purpose, offered, granted }));
  const scan = latestScan && {
    completedAt: latestScan.completedAt,
    findings: latestScan.findings.map((finding) => {
      const item = latestScan.items.find((candidate) => candidate.name === finding.subject);
      return { code: finding.code, subject: finding.subject, purpose: item?.purpose ?? null, platform: item?.platform ?? null, pageCount: finding.pageCount };
    }),
  };
  return toRecommendationMetrics({ website, days: options.days, today, dimensions, impressions, bannerChoices, lastEventDay, purposes, scan });
}
