// `/websites`: the Websites screen; each website links to its page.
import { createFileRoute } from '@tanstack/react-router';
import { WebsitesPage } from '../../../features/websites/websites-page';
import { prefetchScreenData } from '../../../lib/screen-data';
import { websitesQueryOptions } from '../../../features/websites/queries';

export const Route = createFileRoute('/_app/websites/')({
  loader: ({ context: { queryClient } }) => prefetchScreenData([queryClient.ensureQueryData(websitesQueryOptions())]),
  component: WebsitesPage,
});
