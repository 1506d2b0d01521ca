// `/analytics`: Analytics & Consent, site analytics of one website over a date range.
import { createFileRoute } from '@tanstack/react-router';
import { AnalyticsPage } from '../../features/analytics/analytics-page';
import { prefetchScreenData } from '../../lib/screen-data';
import { websitesQueryOptions } from '../../features/websites/queries';

export const Route = createFileRoute('/_app/analytics')({
  loader: ({ context: { queryClient } }) => prefetchScreenData([queryClient.ensureQueryData(websitesQueryOptions())]),
  component: AnalyticsPage,
});
