// `/websites/$websiteId/leads`: the website's leads; search, filters and sort are the URL's search parameters.
import { createFileRoute } from '@tanstack/react-router';
import { LeadsPage } from '../../../../features/leads/leads-page';
import { leadsQueryOptions } from '../../../../features/leads/queries';
import { parseLeadsSearch } from '../../../../features/leads/search';
import { useWebsite } from '../../../../features/websites/use-website';
import { prefetchScreenData } from '../../../../lib/screen-data';

export const Route = createFileRoute('/_app/websites/$websiteId/leads')({
  // The website is the path's: a `websiteId` in the search would only contradict it.
  validateSearch: (search: Record<string, unknown>) => ({ ...parseLeadsSearch(search), websiteId: undefined }),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, params: { websiteId }, deps }) =>
    prefetchScreenData([queryClient.ensureInfiniteQueryData(leadsQueryOptions({ ...deps, websiteId }))]),
  component: LeadsRoute,
});

function LeadsRoute() {
  const website = useWebsite(Route.useParams().websiteId);
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <LeadsPage
      website={website}
      search={search}
      onSearchChange={(next, options) => void navigate({ search: { ...next, websiteId: undefined }, replace: options?.replace ?? false })}
    />
  );
}
