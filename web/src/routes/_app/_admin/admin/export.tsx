// `/admin/export`: Export is now a section of a website's Consent tab (the first website's).
import { createFileRoute } from '@tanstack/react-router';
import { redirectToWebsiteTab } from '../../../../features/websites/redirects';
import { exportSectionId } from '../../../../features/websites/website-tabs';

export const Route = createFileRoute('/_app/_admin/admin/export')({
  beforeLoad: ({ context: { queryClient, session } }) => redirectToWebsiteTab(queryClient, session, { tab: 'consent', hash: exportSectionId }),
});
