// `/recommendations`: recommendations for every website, or one website over 7, 30 or 90 days.
import { createFileRoute } from '@tanstack/react-router';
import { RecommendationsPage } from '../../features/recommendations/recommendations-page';

export const Route = createFileRoute('/_app/recommendations')({
  component: RecommendationsPage,
});
