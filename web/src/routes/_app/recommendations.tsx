// `/recommendations`: recommendations for every website, or one website over 7, 30 or 90 days.
import { createFileRoute } from '@tanstack/react-router';
import { RecommendationsPage } from '../../features/recommendations/recommendations-page';
import { prefetchScreenData } from '../../lib/screen-data';
import { allRecommendationsQueryOptions } from '../../features/recommendations/queries';
import { websitesQueryOptions } from '../../features/websites/queries';

export const Route = createFileRoute('/_app/recommendations')({
  loader: ({ context: { queryClient } }) =>
    prefetchScreenData([queryClient.ensureQueryData(websitesQueryOptions()), queryClient.ensureQueryData(allRecommendationsQueryOptions())]),
  component: RecommendationsPage,
});
