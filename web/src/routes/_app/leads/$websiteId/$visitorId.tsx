// `/leads/$websiteId/$visitorId`: one lead with its consent proof and timeline.
import { createFileRoute } from '@tanstack/react-router';
import { LeadPage } from '../../../../features/leads/lead-page';
import { prefetchScreenData } from '../../../../lib/screen-data';
import { leadQueryOptions } from '../../../../features/leads/queries';

export const Route = createFileRoute('/_app/leads/$websiteId/$visitorId')({
  loader: ({ context: { queryClient }, params: { websiteId, visitorId } }) =>
    prefetchScreenData([queryClient.ensureQueryData(leadQueryOptions(websiteId, visitorId))]),
  component: LeadRoute,
});

function LeadRoute() {
  const { websiteId, visitorId } = Route.useParams();
  // Keyed by lead: another lead's page starts from its own data, not the previous one's scroll or state.
  return <LeadPage key={`${websiteId}/${visitorId}`} websiteId={websiteId} visitorId={visitorId} />;
}
