// `/analytics`: Analytics & Consent is now a website's Traffic tab (the first website's).
import { createFileRoute } from '@tanstack/react-router';
import { redirectToWebsiteTab } from '../../features/websites/redirects';

export const Route = createFileRoute('/_app/analytics')({
  beforeLoad: ({ context: { queryClient, session } }) => redirectToWebsiteTab(queryClient, session, { tab: 'traffic' }),
});
