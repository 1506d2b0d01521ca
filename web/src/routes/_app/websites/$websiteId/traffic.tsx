// `/websites/$websiteId/traffic`: the website's visitors, page views, pages, sources and devices.
import { createFileRoute } from '@tanstack/react-router';
import { TrafficTab } from '../../../../features/analytics/traffic-tab';
import { WebsiteTabHeading } from '../../../../features/websites/website-page';

export const Route = createFileRoute('/_app/websites/$websiteId/traffic')({
  component: TrafficRoute,
});

function TrafficRoute() {
  const { websiteId } = Route.useParams();
  return (
    <>
      <WebsiteTabHeading title="Traffic" description="Visitors who accepted analytics, over the days you choose." />
      <TrafficTab websiteId={websiteId} />
    </>
  );
}
