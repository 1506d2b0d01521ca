// How the site analytics are shown: top pages cut to 8 entries with paths truncated at 40
// characters, referrers named and grouped (Direct, search engines, other websites), device classes
// in a fixed order (spec section 9), the daily trend summed and described in words. Pure, so the
// rules are unit-tested without a DOM.
import type { DailyAnalytics, SiteAnalytics } from './queries';

export const topPagesShown = 8;
export const pathDisplayLength = 40;

/** The first 40 characters of a path, with an ellipsis when there was more. */
export function truncatePath(path: string, length: number = pathDisplayLength): string {
  return path.length > length ? `${path.slice(0, length)}…` : path;
}

/** The api names search engines by their name (docs/analytics.md, Referrers). */
export const searchEngines: Readonly<Record<string, string>> = {
  google: 'Google',
  bing: 'Bing',
  yahoo: 'Yahoo',
  duckduckgo: 'DuckDuckGo',
};

export const directReferrer = 'Direct';

export type TrafficGroup = 'Direct' | 'Search engines' | 'Other websites' | 'Other referrers';

export interface TrafficSource {
  label: string;
  visits: number;
  group: Exclude<TrafficGroup, 'Other referrers'>;
}

export function describeReferrer(domain: string): TrafficSource['group'] {
  if (domain === directReferrer) return 'Direct';
  if (domain in searchEngines) return 'Search engines';
  return 'Other websites';
}

export function getTrafficSources(analytics: Pick<SiteAnalytics, 'topReferrers'>): TrafficSource[] {
  return analytics.topReferrers.map(({ domain, visits }) => ({
    label: searchEngines[domain] ?? domain,
    visits,
    group: describeReferrer(domain),
  }));
}

/** Visits started in the range: every visit has exactly one device class. */
export function getTotalVisits(analytics: Pick<SiteAnalytics, 'deviceBreakdown'>): number {
  return Object.values(analytics.deviceBreakdown).reduce((sum, visits) => sum + visits, 0);
}

/**
 * Visits per group of source. The api lists the 10 referrers with the most visits; visits from
 * referrers beyond those are 'Other referrers', so the groups add up to every visit.
 */
export function groupTrafficSources(analytics: Pick<SiteAnalytics, 'topReferrers' | 'deviceBreakdown'>): { group: TrafficGroup; visits: number }[] {
  const totals = new Map<TrafficGroup, number>([
    ['Direct', 0],
    ['Search engines', 0],
    ['Other websites', 0],
  ]);
  for (const source of getTrafficSources(analytics)) totals.set(source.group, (totals.get(source.group) ?? 0) + source.visits);
  const listed = analytics.topReferrers.reduce((sum, referrer) => sum + referrer.visits, 0);
  const rest = getTotalVisits(analytics) - listed;
  if (rest > 0) totals.set('Other referrers', rest);
  return [...totals].filter(([, visits]) => visits > 0).map(([group, visits]) => ({ group, visits }));
}

const deviceLabels: Readonly<Record<string, string>> = {
  desktop: 'Desktop',
  mobile: 'Mobile',
  tablet: 'Tablet',
  bot: 'Bots',
  unknown: 'Unknown',
};
const deviceOrder = Object.keys(deviceLabels);

export function getDevices(analytics: Pick<SiteAnalytics, 'deviceBreakdown'>): { device: string; label: string; visits: number }[] {
  return Object.entries(analytics.deviceBreakdown)
    .filter(([, visits]) => visits > 0)
    .sort(([a], [b]) => rankOf(a) - rankOf(b) || a.localeCompare(b))
    .map(([device, visits]) => ({ device, label: deviceLabels[device] ?? device, visits }));
}

function rankOf(device: string): number {
  const index = deviceOrder.indexOf(device);
  return index === -1 ? deviceOrder.length : index;
}

/** Share of a part in percent, for labels; 0 of 0 is 0. */
export function shareOf(part: number, total: number): number {
  return total === 0 ? 0 : (part / total) * 100;
}

const trendDayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const trendDayWithYearFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** `May 3` (the chart's axis), or `May 3, 2026` with the year. */
export function formatTrendDay(day: string, withYear = false): string {
  return (withYear ? trendDayWithYearFormat : trendDayFormat).format(new Date(`${day}T00:00:00Z`));
}

/** Page views of every day added up: the range's total page views (docs/analytics.md). */
export function getTrendPageviews(series: readonly DailyAnalytics[]): number {
  return series.reduce((sum, day) => sum + day.pageviews, 0);
}

/** The day with the most page views (the earliest of equals), or null without any. */
export function getBusiestDay(series: readonly DailyAnalytics[]): DailyAnalytics | null {
  return series.reduce<DailyAnalytics | null>((busiest, day) => (day.pageviews > (busiest?.pageviews ?? 0) ? day : busiest), null);
}

const plural = (count: number, singular: string, many = `${singular}s`) => `${count.toLocaleString('en-US')} ${count === 1 ? singular : many}`;

/** The chart in one sentence, for screen readers: the days, the total and the busiest day. */
export function describeTrafficTrend(series: readonly DailyAnalytics[]): string {
  const first = series[0];
  const last = series.at(-1);
  if (!first || !last) return 'Visitors and page views per day: no days';
  const days = first.day === last.day ? formatTrendDay(first.day, true) : `${formatTrendDay(first.day, true)} to ${formatTrendDay(last.day, true)}`;
  const busiest = getBusiestDay(series);
  const total = `${plural(getTrendPageviews(series), 'page view')} in total`;
  if (!busiest) return `Visitors and page views per day, ${days}: no page views`;
  return `Visitors and page views per day, ${days}: ${total}; busiest day ${formatTrendDay(busiest.day, true)} with ${plural(busiest.uniqueVisitors, 'visitor')} and ${plural(busiest.pageviews, 'page view')}`;
}
