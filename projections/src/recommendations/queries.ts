// The spec's Recommendation report: the metrics of one website over 7, 30 or 90 days, gathered from
// the read models, run through the rules (rules.ts). Also the all-websites variant.
import type { Queryable } from '@consentry/infra';
import { getWebsite, type Website } from '../websites/queries';
import { consentRateOf, gatherRecommendationMetrics, totalOf, type RecommendationMetrics } from './metrics';
import { runRecommendationRules, type Recommendation } from './rules';

export const recommendationPeriods = [7, 30, 90] as const;
export type RecommendationPeriod = (typeof recommendationPeriods)[number];
/** The all-websites overview uses the spec's default range. */
export const defaultRecommendationPeriod: RecommendationPeriod = 30;

/** The spec's Recommendation report (section 3). Rates are percentages with one decimal; 0 without choices. */
export interface RecommendationReport {
  readonly consentRate: number;
  readonly totalConsents: number;
  readonly mobileConsentRate: number;
  readonly desktopConsentRate: number;
  readonly recommendations: readonly Recommendation[];
}

export interface WebsiteRecommendationReport {
  readonly website: { readonly id: string; readonly name: string; readonly domain: string };
  readonly consentRate: number;
  readonly totalConsents: number;
  readonly recommendations: readonly Recommendation[];
}

const reportRate = (rate: number | null) => (rate === null ? 0 : Math.round(rate * 10) / 10);

/** Metrics → report. Pure. */
export function buildRecommendationReport(metrics: RecommendationMetrics): RecommendationReport {
  return {
    consentRate: reportRate(consentRateOf(metrics.consent)),
    totalConsents: totalOf(metrics.consent),
    mobileConsentRate: reportRate(consentRateOf(metrics.mobile)),
    desktopConsentRate: reportRate(consentRateOf(metrics.desktop)),
    recommendations: runRecommendationRules(metrics),
  };
}

export interface RecommendationReportRequest {
  readonly websiteId: string;
  readonly days: RecommendationPeriod;
  /** The report covers the `days` UTC days ending with this instant's day. */
  readonly now: Date;
}

async function reportOf(db: Queryable, website: Website, days: RecommendationPeriod, now: Date): Promise<RecommendationReport> {
  return buildRecommendationReport(await gatherRecommendationMetrics(db, website, { days, now }));
}

/** One website's report; null when the website does not exist. */
export async function getRecommendationReport(db: Queryable, request: RecommendationReportRequest): Promise<RecommendationReport | null> {
  const website = await getWebsite(db, request.websiteId);
  return website === null ? null : reportOf(db, website, request.days, request.now);
}

/** A report per website that exists, in the order of `websiteIds`. */
export async function getAllRecommendationReports(
  db: Queryable,
  request: { readonly websiteIds: readonly string[]; readonly now: Date; readonly days?: RecommendationPeriod },
): Promise<WebsiteRecommendationReport[]> {
  const days = request.days ?? defaultRecommendationPeriod;
  const reports: WebsiteRecommendationReport[] = [];
  for (const websiteId of request.websiteIds) {
    const website = await getWebsite(db, websiteId);
    if (website === null) continue;
    const report = await reportOf(db, website, days, request.now);
    reports.push({
      website: { id: website.id, name: website.name, domain: website.domain },
      consentRate: report.consentRate,
      totalConsents: report.totalConsents,
      recommendations: report.recommendations,
    });
  }
  return reports;
}
