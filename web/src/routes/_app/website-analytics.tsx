// `/website-analytics`: a card per website; `?website=<id>` opens its detail, `&tab=` one of its tabs.
import { createFileRoute } from '@tanstack/react-router';
import { parseWebsiteAnalyticsSearch } from '../../features/website-analytics/search';
import { WebsiteAnalyticsPage } from '../../features/website-analytics/website-analytics-page';

export const Route = createFileRoute('/_app/website-analytics')({
  validateSearch: parseWebsiteAnalyticsSearch,
  component: WebsiteAnalyticsRoute,
});

function WebsiteAnalyticsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <WebsiteAnalyticsPage websiteId={search.website} tab={search.tab} onNavigate={(next) => void navigate({ search: next })} />;
}
