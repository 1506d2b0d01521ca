// `/website-analytics`: the old list of websites and their detail (`?website=<id>&tab=<tab>`, or
// `?websiteId=`). A website's detail is now its page: the old tab lands on the same content's tab
// (Settings on Banner); without a website, on the Websites page, which lists them as the old page did.
import { createFileRoute, redirect } from '@tanstack/react-router';
import { getWebsiteAnalyticsTarget, parseWebsiteAnalyticsSearch } from '../../features/website-analytics/search';
import { getWebsitesPath, redirectToWebsiteTab } from '../../features/websites/redirects';

export const Route = createFileRoute('/_app/website-analytics')({
  validateSearch: parseWebsiteAnalyticsSearch,
  beforeLoad: ({ context: { queryClient, session }, search }) => {
    const target = getWebsiteAnalyticsTarget(search);
    if (!target) throw redirect({ to: getWebsitesPath(session), replace: true });
    return redirectToWebsiteTab(queryClient, session, target);
  },
});
