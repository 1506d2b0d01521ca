// `/websites/$websiteId/overview`: what to do next on the website, its key figures and recommendations.
import { createFileRoute } from '@tanstack/react-router';
import { defaultRecommendationPeriod, websiteRecommendationsQueryOptions } from '../../../../features/recommendations/queries';
import { scansQueryOptions } from '../../../../features/scans/queries';
import { websiteStatsQueryOptions } from '../../../../features/stats/queries';
import { websiteSettingsQueryOptions } from '../../../../features/website-settings/queries';
import { WebsiteOverviewTab } from '../../../../features/websites/website-overview-tab';
import { useWebsite } from '../../../../features/websites/use-website';
import { prefetchScreenData } from '../../../../lib/screen-data';

export const Route = createFileRoute('/_app/websites/$websiteId/overview')({
  loader: ({ context: { queryClient }, params: { websiteId } }) =>
    prefetchScreenData([
      queryClient.ensureQueryData(websiteStatsQueryOptions()),
      queryClient.ensureQueryData(scansQueryOptions(websiteId)),
      queryClient.ensureQueryData(websiteSettingsQueryOptions(websiteId)),
      queryClient.ensureQueryData(websiteRecommendationsQueryOptions(websiteId, defaultRecommendationPeriod)),
    ]),
  component: OverviewRoute,
});

function OverviewRoute() {
  const website = useWebsite(Route.useParams().websiteId);
  return <WebsiteOverviewTab website={website} />;
}
