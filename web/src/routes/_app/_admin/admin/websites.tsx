// `/admin/websites`: the Websites screen.
import { createFileRoute } from '@tanstack/react-router';
import { WebsitesPage } from '../../../../features/websites/websites-page';
import { prefetchScreenData } from '../../../../lib/screen-data';
import { websitesQueryOptions } from '../../../../features/websites/queries';

export const Route = createFileRoute('/_app/_admin/admin/websites')({
  loader: ({ context: { queryClient } }) => prefetchScreenData([queryClient.ensureQueryData(websitesQueryOptions())]),
  component: WebsitesPage,
});
