// Reads of the analytics read model: the spec's "Site analytics" for one website over a range of
// UTC days, each figure a sum over daily rows (docs/analytics.md, "Queries").
import type { Queryable } from '@consentry/infra';
import { coverRange } from './buckets';

export interface AnalyticsRange {
  readonly websiteId: string;
  /** Inclusive UTC days, `YYYY-MM-DD`. */
  readonly fromDay: string;
  readonly toDay: string;
}

export interface MobileEngagement {
  readonly locationMapViews: number;
  readonly hoursOperationViews: number;
  readonly contactFormSubmissions: number;
  readonly tapToCallActions: number;
}

/** The spec's Site analytics (section 3). */
export interface SiteAnalytics {
  readonly uniqueVisitors: number;
  readonly totalPageviews: number;
  /** Page views per visit of the visits that started in the range (2 decimals). */
  readonly pagesPerVisit: number;
  /** Seconds (whole) of visible time per visit. */
  readonly avgTimeOnSite: number;
  /** Percent of visits that bounced (1 decimal). */
  readonly bounceRate: number;
  /** Top 8 paths by page views; `url` is the path. */
  readonly topPages: ReadonlyArray<{ readonly url: string; readonly views: number }>;
  /** Top 10 referrer domains by visits, 'Direct' included. */
  readonly topReferrers: ReadonlyArray<{ readonly domain: string; readonly visits: number }>;
  readonly mobileEngagement: MobileEngagement;
  /** Visits per device class (only classes that occur). */
  readonly deviceBreakdown: Readonly<Record<string, number>>;
}

export const topPagesLimit = 8;
export const topReferrersLimit = 10;

export interface AnalyticsTotals {
  readonly pageviews: number;
  readonly visits: number;
  readonly visitPageviews: number;
  readonly bounces: number;
  readonly visitTimeMs: number;
  readonly mobileEngagement: MobileEngagement;
}

export async function getAnalyticsTotals(db: Queryable, range: AnalyticsRange): Promise<AnalyticsTotals> {
  const { rows } = await db.query<{
    pageviews: number;
    visits: number;
    visit_pageviews: number;
    bounces: number;
    visit_time_ms: number;
    location_map_views: number;
    opening_hours_views: number;
    contact_form_submissions: number;
    tap_to_call_actions: number;
  }>({
    name: 'get-analytics-totals',
    text: `SELECT coalesce(sum(pageviews), 0)::int8 AS pageviews, coalesce(sum(visits), 0)::int8 AS visits,
                  coalesce(sum(visit_pageviews), 0)::int8 AS visit_pageviews, coalesce(sum(bounces), 0)::int8 AS bounces,
                  coalesce(sum(visit_time_ms), 0)::int8 AS visit_time_ms,
                  coalesce(sum(location_map_views), 0)::int8 AS location_map_views,
                  coalesce(sum(opening_hours_views), 0)::int8 AS opening_hours_views,
                  coalesce(sum(contact_form_submissions), 0)::int8 AS contact_form_submissions,
                  coalesce(sum(tap_to_call_actions), 0)::int8 AS tap_to_call_actions
             FROM analytics_daily
            WHERE website_id = $1 AND day BETWEEN $2::date AND $3::date`,
    values: [range.websiteId, range.fromDay, range.toDay],
  });
  const row = rows[0]!;
  return {
    pageviews: row.pageviews,
    visits: row.visits,
    visitPageviews: row.visit_pageviews,
    bounces: row.bounces,
    visitTimeMs: row.visit_time_ms,
    mobileEngagement: {
      locationMapViews: row.location_map_views,
      hoursOperationViews: row.opening_hours_views,
      contactFormSubmissions: row.contact_form_submissions,
      tapToCallActions: row.tap_to_call_actions,
    },
  };
}

/**
 * Visitors with at least one page view in the range, each counted once: the sum over the range's
 * days of the visitor-days whose previous day falls before the range (see the migration).
 */
export async function countUniqueVisitors(db: Queryable, range: AnalyticsRange): Promise<number> {
  const { rows } = await db.query<{ visitors: number }>({
    name: 'count-unique-visitors',
    text: `SELECT coalesce(sum(visitors), 0)::int8 AS visitors
             FROM analytics_visitor_days
            WHERE website_id = $1 AND day BETWEEN $2::date AND $3::date AND previous_day < $2::date`,
    values: [range.websiteId, range.fromDay, range.toDay],
  });
  return rows[0]!.visitors;
}

/** The buckets that exactly cover the range, as the two arrays the rolled-up queries join on. */
function bucketArrays(range: AnalyticsRange): [number[], string[]] {
  const buckets = coverRange(range.fromDay, range.toDay);
  return [buckets.map((bucket) => bucket.span), buckets.map((bucket) => bucket.firstDay)];
}

export async function getTopPages(db: Queryable, range: AnalyticsRange, limit = topPagesLimit): Promise<SiteAnalytics['topPages']> {
  const [spans, firstDays] = bucketArrays(range);
  const { rows } = await db.query<{ url: string; views: number }>({
    name: 'get-top-pages',
    text: `SELECT pages.path AS url, sum(pages.views)::int8 AS views
             FROM unnest($2::int2[], $3::date[]) AS bucket(span, first_day)
             JOIN analytics_pages AS pages
               ON pages.website_id = $1 AND pages.span = bucket.span AND pages.first_day = bucket.first_day
            GROUP BY pages.path
            ORDER BY views DESC, pages.path
            LIMIT $4`,
    values: [range.websiteId, spans, firstDays, limit],
  });
  return rows;
}

export async function getTopReferrers(
  db: Queryable,
  range: AnalyticsRange,
  limit = topReferrersLimit,
): Promise<SiteAnalytics['topReferrers']> {
  const [spans, firstDays] = bucketArrays(range);
  const { rows } = await db.query<{ domain: string; visits: number }>({
    name: 'get-top-referrers',
    text: `SELECT referrers.domain, sum(referrers.visits)::int8 AS visits
             FROM unnest($2::int2[], $3::date[]) AS bucket(span, first_day)
             JOIN analytics_referrers AS referrers
               ON referrers.website_id = $1 AND referrers.span = bucket.span AND referrers.first_day = bucket.first_day
            GROUP BY referrers.domain
            ORDER BY visits DESC, referrers.domain
            LIMIT $4`,
    values: [range.websiteId, spans, firstDays, limit],
  });
  return rows;
}

export async function getDeviceBreakdown(db: Queryable, range: AnalyticsRange): Promise<Record<string, number>> {
  const { rows } = await db.query<{ device_class: string; visits: number }>({
    name: 'get-device-breakdown',
    text: `SELECT device_class, sum(visits)::int8 AS visits
             FROM analytics_daily_devices
            WHERE website_id = $1 AND day BETWEEN $2::date AND $3::date
            GROUP BY device_class
            HAVING sum(visits) > 0
            ORDER BY device_class`,
    values: [range.websiteId, range.fromDay, range.toDay],
  });
  return Object.fromEntries(rows.map((row) => [row.device_class, row.visits]));
}

export interface DailyAnalytics {
  /** A UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  /** Visitors with a counted page view that day, each once (a visitor of two days counts on both). */
  readonly uniqueVisitors: number;
  readonly pageviews: number;
  /** Visits started that day. */
  readonly visits: number;
}

/** The longest range `getDailyAnalytics` answers: one row per day, so the answer stays small. */
export const maxDailyAnalyticsDays = 366;

const dayMs = 86_400_000;

/**
 * One row per day of the range, in order, days without traffic as zeros: that day's unique
 * visitors, page views and visits started. Each day's figures are those `getSiteAnalytics` gives for
 * that day alone, and the page views add up to the range's `totalPageviews`.
 */
export async function getDailyAnalytics(db: Queryable, range: AnalyticsRange): Promise<DailyAnalytics[]> {
  const days = (Date.parse(range.toDay) - Date.parse(range.fromDay)) / dayMs + 1;
  if (!(days >= 1 && days <= maxDailyAnalyticsDays)) {
    throw new RangeError(`A daily series covers 1 to ${maxDailyAnalyticsDays} days, not ${range.fromDay}..${range.toDay}`);
  }
  const { rows } = await db.query<{ day: string; unique_visitors: number; pageviews: number; visits: number }>({
    name: 'get-daily-analytics',
    text: `SELECT to_char(days.day, 'YYYY-MM-DD') AS day, coalesce(visitor_days.visitors, 0)::int8 AS unique_visitors,
                  coalesce(daily.pageviews, 0)::int8 AS pageviews, coalesce(daily.visits, 0)::int8 AS visits
             FROM generate_series($2::date, $3::date, interval '1 day') AS days(day)
             LEFT JOIN analytics_daily AS daily ON daily.website_id = $1 AND daily.day = days.day::date
             LEFT JOIN (SELECT day, sum(visitors) AS visitors
                          FROM analytics_visitor_days
                         WHERE website_id = $1 AND day BETWEEN $2::date AND $3::date
                         GROUP BY day) AS visitor_days ON visitor_days.day = days.day::date
            ORDER BY days.day`,
    values: [range.websiteId, range.fromDay, range.toDay],
  });
  return rows.map((row) => ({ day: row.day, uniqueVisitors: row.unique_visitors, pageviews: row.pageviews, visits: row.visits }));
}

const roundTo = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

/** Derived figures of the spec's shape, from the summed totals (0 when there were no visits). */
export function toSiteAnalyticsFigures(totals: AnalyticsTotals): Pick<SiteAnalytics, 'pagesPerVisit' | 'avgTimeOnSite' | 'bounceRate'> {
  if (totals.visits === 0) return { pagesPerVisit: 0, avgTimeOnSite: 0, bounceRate: 0 };
  return {
    pagesPerVisit: roundTo(totals.visitPageviews / totals.visits, 2),
    avgTimeOnSite: Math.round(totals.visitTimeMs / totals.visits / 1000),
    bounceRate: roundTo((totals.bounces / totals.visits) * 100, 1),
  };
}

/** The spec's Site analytics of one website over `fromDay`..`toDay` (inclusive, UTC). */
export async function getSiteAnalytics(db: Queryable, range: AnalyticsRange): Promise<SiteAnalytics> {
  const [totals, uniqueVisitors, topPages, topReferrers, deviceBreakdown] = await Promise.all([
    getAnalyticsTotals(db, range),
    countUniqueVisitors(db, range),
    getTopPages(db, range),
    getTopReferrers(db, range),
    getDeviceBreakdown(db, range),
  ]);
  return {
    uniqueVisitors,
    totalPageviews: totals.pageviews,
    ...toSiteAnalyticsFigures(totals),
    topPages,
    topReferrers,
    mobileEngagement: totals.mobileEngagement,
    deviceBreakdown,
  };
}
