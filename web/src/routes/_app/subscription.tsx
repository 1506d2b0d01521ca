// `/subscription`: plan and usage.
import { createFileRoute } from '@tanstack/react-router';
import { SubscriptionPage } from '../../features/subscription/subscription-page';
import { prefetchScreenData } from '../../lib/screen-data';
import { subscriptionUsageQueryOptions } from '../../features/subscription/queries';

export const Route = createFileRoute('/_app/subscription')({
  loader: ({ context: { queryClient } }) => prefetchScreenData([queryClient.ensureQueryData(subscriptionUsageQueryOptions())]),
  component: SubscriptionPage,
});
