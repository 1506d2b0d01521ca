// The search parameters of /website-analytics: which website's detail is open, and which tab.
// Kept in the URL so the detail can be linked to (Recommendations links to a website's Settings tab,
// `tab=scan` is its Cookie scan, `tab=webhooks` its Webhooks) and the browser's Back button returns to the cards.

export const websiteAnalyticsTabs = ['consent', 'traffic', 'settings', 'scan', 'webhooks'] as const;
export type WebsiteAnalyticsTab = (typeof websiteAnalyticsTabs)[number];

export interface WebsiteAnalyticsSearch {
  website?: string;
  tab?: WebsiteAnalyticsTab;
}

export function parseWebsiteAnalyticsSearch(search: Record<string, unknown>): WebsiteAnalyticsSearch {
  const website = typeof search.website === 'string' && search.website.length > 0 && search.website.length <= 64 ? search.website : undefined;
  const tab = websiteAnalyticsTabs.find((candidate) => candidate === search.tab);
  return { ...(website ? { website } : {}), ...(website && tab ? { tab } : {}) };
}
