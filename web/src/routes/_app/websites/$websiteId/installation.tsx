// `/websites/$websiteId/installation`: the website's snippet, banner preview, verification and the
// Setup Guide's platform instructions: installing is one job, on one tab.
import { createFileRoute } from '@tanstack/react-router';
import { InstallationPage } from '../../../../features/installation/installation-page';
import { prefetchInstallationPage } from '../../../../features/installation/queries';
import { SetupGuidePage } from '../../../../features/setup-guide/setup-guide-page';
import { WebsiteTabHeading } from '../../../../features/websites/website-page';

export const Route = createFileRoute('/_app/websites/$websiteId/installation')({
  loader: ({ context: { queryClient, session } }) => prefetchInstallationPage(queryClient, session),
  component: InstallationRoute,
});

function InstallationRoute() {
  const { websiteId } = Route.useParams();
  return (
    <>
      <WebsiteTabHeading title="Installation" description="Add the consent banner to your website." />
      <InstallationPage websiteId={websiteId} />
      <SetupGuidePage websiteId={websiteId} />
    </>
  );
}
