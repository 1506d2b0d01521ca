// `/pricing`: public plans and prices.
import { createFileRoute } from '@tanstack/react-router';
import { PricingPage } from '../features/pricing/pricing-page';
import { prefetchScreenData } from '../lib/screen-data';
import { subscriptionPlansQueryOptions } from '../features/subscription/queries';

export const Route = createFileRoute('/pricing')({
  loader: ({ context: { queryClient } }) => prefetchScreenData([queryClient.ensureQueryData(subscriptionPlansQueryOptions())]),
  component: PricingPage,
});
