// The spec's older per-website screens (/installation, /user/settings, /website-analytics?website=…,
// …) now are tabs of a website's page. Their routes keep working by redirecting in `beforeLoad`: to the
// website the old URL named, else to the owner's first website, else to the Websites page.
import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import type { Session } from '../auth/queries';
import { websitesQueryOptions } from './queries';
import { getWebsiteTabPath, type WebsiteTab } from './website-tabs';

/** The Websites page of the viewer: admins keep theirs under /admin. */
export function getWebsitesPath(session: Pick<Session, 'admin'>): '/admin/websites' | '/websites' {
  return session.admin ? '/admin/websites' : '/websites';
}

export interface OldRouteTarget {
  tab: WebsiteTab;
  /** The website the old URL named, if any. */
  websiteId?: string;
  /** A section of the tab to scroll to. */
  hash?: string;
}

/** Throws the redirect from an old route; never returns. */
export async function redirectToWebsiteTab(queryClient: QueryClient, session: Pick<Session, 'admin'>, target: OldRouteTarget): Promise<never> {
  let websiteId = target.websiteId;
  if (websiteId === undefined) {
    // A failed read lands on the Websites page, which shows the failure and a way forward.
    const websites = await queryClient.ensureQueryData(websitesQueryOptions()).catch(() => []);
    websiteId = websites[0]?.id;
  }
  if (websiteId === undefined) throw redirect({ to: getWebsitesPath(session), replace: true });
  throw redirect({ to: getWebsiteTabPath(target.tab), params: { websiteId }, hash: target.hash, replace: true });
}
