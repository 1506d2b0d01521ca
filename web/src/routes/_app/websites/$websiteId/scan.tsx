// `/websites/$websiteId/scan`: the website's cookie and tracker scans, their schedule and reports.
import { createFileRoute } from '@tanstack/react-router';
import CookieScanTab from '../../../../features/scans/cookie-scan-tab';
import { scansQueryOptions } from '../../../../features/scans/queries';
import { websiteSettingsQueryOptions } from '../../../../features/website-settings/queries';
import { WebsiteTabHeading } from '../../../../features/websites/website-page';
import { prefetchScreenData } from '../../../../lib/screen-data';

export const Route = createFileRoute('/_app/websites/$websiteId/scan')({
  loader: ({ context: { queryClient }, params: { websiteId } }) =>
    prefetchScreenData([queryClient.ensureQueryData(websiteSettingsQueryOptions(websiteId)), queryClient.ensureQueryData(scansQueryOptions(websiteId))]),
  component: ScanRoute,
});

function ScanRoute() {
  const { websiteId } = Route.useParams();
  return (
    <>
      <WebsiteTabHeading title="Cookie scan" description="The cookies and trackers your website sets, and whether they wait for consent." />
      <CookieScanTab websiteId={websiteId} />
    </>
  );
}
