// How the site analytics are shown: top pages cut to 8 entries with paths truncated at 40
// characters, referrers named and grouped (Direct, search engines, other websites), device classes
// in a fixed order (spec section 9). Pure, so the rules are unit-tested without a DOM.
import type { SiteAnalytics } from './queries';

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
