// `/website-analytics`: a card per website; `?website=<id>` opens its detail, `&tab=` one of its tabs.
import { createFileRoute } from '@tanstack/react-router';
import { parseWebsiteAnalyticsSearch } from '../../features/website-analytics/search';
import { WebsiteAnalyticsPage } from '../../features/website-analytics/website-analytics-page';
import { prefetchWebsiteAnalyticsPage } from '../../features/website-analytics/queries';

export const Route = createFileRoute('/_app/website-analytics')({
  validateSearch: parseWebsiteAnalyticsSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => prefetchWebsiteAnalyticsPage(queryClient, deps),
  component: WebsiteAnalyticsRoute,
});

function WebsiteAnalyticsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <WebsiteAnalyticsPage websiteId={search.website} tab={search.tab} onNavigate={(next) => void navigate({ search: next })} />;
}
