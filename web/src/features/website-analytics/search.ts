// The search parameters of the old /website-analytics (`?website=…&tab=…`; `websiteId=` is read as
// well): the route now only redirects, and these say to which website's tab. Recommendations and
// bookmarks made before the website page had tabs of its own keep landing on the same content.
import type { OldRouteTarget } from '../websites/redirects';
import type { WebsiteTab } from '../websites/website-tabs';

export const websiteAnalyticsTabs = ['consent', 'traffic', 'settings', 'scan', 'webhooks'] as const;
export type WebsiteAnalyticsTab = (typeof websiteAnalyticsTabs)[number];

export interface WebsiteAnalyticsSearch {
  website?: string;
  tab?: WebsiteAnalyticsTab;
}

/** The old tabs as the website page names them: Settings is now the Banner tab. */
const tabOfOldTab: Record<WebsiteAnalyticsTab, WebsiteTab> = {
  consent: 'consent',
  traffic: 'traffic',
  settings: 'banner',
  scan: 'scan',
  webhooks: 'webhooks',
};

function readWebsiteId(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= 64 ? value : undefined;
}

export function parseWebsiteAnalyticsSearch(search: Record<string, unknown>): WebsiteAnalyticsSearch {
  const website = readWebsiteId(search.website) ?? readWebsiteId(search.websiteId);
  const tab = websiteAnalyticsTabs.find((candidate) => candidate === search.tab);
  return { ...(website ? { website } : {}), ...(website && tab ? { tab } : {}) };
}

/** Where an old /website-analytics URL now leads; null: to the Websites page (the old page listed them all). */
export function getWebsiteAnalyticsTarget(search: WebsiteAnalyticsSearch): OldRouteTarget | null {
  if (!search.website) return null;
  // Without a tab the old detail showed Consent Data: the same content, now the Consent tab.
  return { websiteId: search.website, tab: tabOfOldTab[search.tab ?? 'consent'] };
}
