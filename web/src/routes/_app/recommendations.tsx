// `/recommendations`: Recommendations are now on a website's Overview tab (the first website's).
import { createFileRoute } from '@tanstack/react-router';
import { redirectToWebsiteTab } from '../../features/websites/redirects';

export const Route = createFileRoute('/_app/recommendations')({
  beforeLoad: ({ context: { queryClient, session } }) => redirectToWebsiteTab(queryClient, session, { tab: 'overview' }),
});
