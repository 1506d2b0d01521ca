// `/websites/$websiteId`: one website's page, its header and tab bar around the open tab (a child route).
import { createFileRoute, Outlet } from '@tanstack/react-router';
import { WebsitePage } from '../../../features/websites/website-page';
import { prefetchScreenData } from '../../../lib/screen-data';
import { websitesQueryOptions } from '../../../features/websites/queries';

export const Route = createFileRoute('/_app/websites/$websiteId')({
  loader: ({ context: { queryClient } }) => prefetchScreenData([queryClient.ensureQueryData(websitesQueryOptions())]),
  component: WebsiteRoute,
});

function WebsiteRoute() {
  const { websiteId } = Route.useParams();
  // Keyed by website: another website's tabs start from their own state (date ranges, open dialogs).
  return (
    <WebsitePage key={websiteId} websiteId={websiteId}>
      <Outlet />
    </WebsitePage>
  );
}
