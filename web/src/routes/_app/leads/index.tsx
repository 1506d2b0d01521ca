// `/leads`: the identified visitors of the viewer's websites. Search, filters and sort are the URL's
// search parameters (`?q=…&websiteId=…&status=…&from=…&sort=…`).
import { createFileRoute } from '@tanstack/react-router';
import { LeadsPage } from '../../../features/leads/leads-page';
import { parseLeadsSearch, type LeadsSearch } from '../../../features/leads/search';
import { prefetchScreenData } from '../../../lib/screen-data';
import { leadsQueryOptions } from '../../../features/leads/queries';
import { websitesQueryOptions } from '../../../features/websites/queries';

export const Route = createFileRoute('/_app/leads/')({
  validateSearch: parseLeadsSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) =>
    prefetchScreenData([queryClient.ensureQueryData(websitesQueryOptions()), queryClient.ensureInfiniteQueryData(leadsQueryOptions(deps))]),
  component: LeadsRoute,
});

function LeadsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <LeadsPage
      search={search}
      onSearchChange={(next: LeadsSearch, options) => void navigate({ search: next, replace: options?.replace ?? false })}
    />
  );
}
