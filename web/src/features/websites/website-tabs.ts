// The tabs of a website's page, in their order. Each tab is its own route under
// /websites/$websiteId, so a tab can be bookmarked, linked to and reached with the Back button.
// See docs/architecture.md ("The web app").
export const websiteTabs = [
  { slug: 'overview', label: 'Overview' },
  { slug: 'consent', label: 'Consent' },
  { slug: 'traffic', label: 'Traffic' },
  { slug: 'leads', label: 'Leads' },
  { slug: 'banner', label: 'Banner' },
  { slug: 'scan', label: 'Cookie scan' },
  { slug: 'installation', label: 'Installation' },
  { slug: 'webhooks', label: 'Webhooks' },
] as const;

export type WebsiteTab = (typeof websiteTabs)[number]['slug'];

/** The route of one tab, as the generated route tree names it. */
export type WebsiteTabPath = `/websites/$websiteId/${WebsiteTab}`;

export function getWebsiteTabPath(tab: WebsiteTab): WebsiteTabPath {
  return `/websites/$websiteId/${tab}`;
}

/** The tab a pathname shows (`/websites/w1/scan` → 'scan'); undefined outside a website's page. */
export function getWebsiteTabOfPath(pathname: string): WebsiteTab | undefined {
  const match = /^\/websites\/[^/]+\/([^/?#]+)/.exec(pathname);
  return websiteTabs.find((tab) => tab.slug === match?.[1])?.slug;
}

/** Where the anchors inside tabs are, for links that land on a section (a redirect from /export). */
export const exportSectionId = 'export';
