// `/admin/installation`: Installation is now a website's Installation tab (the first website's).
import { createFileRoute } from '@tanstack/react-router';
import { redirectToWebsiteTab } from '../../../../features/websites/redirects';

export const Route = createFileRoute('/_app/_admin/admin/installation')({
  beforeLoad: ({ context: { queryClient, session } }) => redirectToWebsiteTab(queryClient, session, { tab: 'installation' }),
});
