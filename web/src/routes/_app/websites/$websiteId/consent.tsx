// `/websites/$websiteId/consent`: the website's consent figures and records, then the export of consent data.
import { createFileRoute, Link } from '@tanstack/react-router';
import { Download } from 'lucide-react';
import { Button } from '../../../../components/ui/button';
import { recentConsentsQueryOptions } from '../../../../features/consents/queries';
import { ExportPage } from '../../../../features/export/export-page';
import { recentExportsQueryOptions } from '../../../../features/export/queries';
import { purposeStatsQueryOptions, websiteStatsQueryOptions } from '../../../../features/stats/queries';
import { ConsentDataTab } from '../../../../features/website-analytics/consent-data-tab';
import { consentRecordsFetched } from '../../../../features/website-analytics/queries';
import { WebsiteTabHeading } from '../../../../features/websites/website-page';
import { exportSectionId } from '../../../../features/websites/website-tabs';
import { prefetchScreenData } from '../../../../lib/screen-data';

export const Route = createFileRoute('/_app/websites/$websiteId/consent')({
  loader: ({ context: { queryClient }, params: { websiteId } }) =>
    prefetchScreenData([
      queryClient.ensureQueryData(websiteStatsQueryOptions()),
      queryClient.ensureQueryData(recentConsentsQueryOptions(consentRecordsFetched)),
      queryClient.ensureQueryData(purposeStatsQueryOptions({ websiteId })),
      queryClient.ensureQueryData(recentExportsQueryOptions()),
    ]),
  component: ConsentRoute,
});

function ConsentRoute() {
  const { websiteId } = Route.useParams();
  return (
    <>
      <WebsiteTabHeading
        title="Consent"
        description="The choices visitors made on your banner, all time."
        action={
          // The export section is below 50 records: say at the top that it is there.
          <Button asChild variant="outline" size="sm" className="self-start">
            <Link to="/websites/$websiteId/consent" params={{ websiteId }} hash={exportSectionId}>
              <Download aria-hidden />
              Export consent data
            </Link>
          </Button>
        }
      />
      <ConsentDataTab websiteId={websiteId} />
      <section id={exportSectionId} aria-label="Export" className="mt-10 scroll-mt-20">
        <ExportPage websiteId={websiteId} />
      </section>
    </>
  );
}
