// `/admin/setup-instructions`: the Setup Guide is now part of a website's Installation tab (the first website's).
import { createFileRoute } from '@tanstack/react-router';
import { redirectToWebsiteTab } from '../../../../features/websites/redirects';

export const Route = createFileRoute('/_app/_admin/admin/setup-instructions')({
  beforeLoad: ({ context: { queryClient, session } }) => redirectToWebsiteTab(queryClient, session, { tab: 'installation' }),
});
