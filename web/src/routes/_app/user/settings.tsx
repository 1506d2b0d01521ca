// `/user/settings`: an owner's settings (banner, branding) are now a website's Banner tab (the first website's).
import { createFileRoute } from '@tanstack/react-router';
import { redirectToWebsiteTab } from '../../../features/websites/redirects';

export const Route = createFileRoute('/_app/user/settings')({
  beforeLoad: ({ context: { queryClient, session } }) => redirectToWebsiteTab(queryClient, session, { tab: 'banner' }),
});
