// `/websites/$websiteId/webhooks`: the website's webhook endpoints and their deliveries.
import { createFileRoute } from '@tanstack/react-router';
import { webhooksQueryOptions } from '../../../../features/webhooks/queries';
import WebhooksTab from '../../../../features/webhooks/webhooks-tab';
import { WebsiteTabHeading } from '../../../../features/websites/website-page';
import { prefetchScreenData } from '../../../../lib/screen-data';

export const Route = createFileRoute('/_app/websites/$websiteId/webhooks')({
  loader: ({ context: { queryClient }, params: { websiteId } }) => prefetchScreenData([queryClient.ensureQueryData(webhooksQueryOptions(websiteId))]),
  component: WebhooksRoute,
});

function WebhooksRoute() {
  const { websiteId } = Route.useParams();
  return (
    <>
      <WebsiteTabHeading title="Webhooks" description="Send each consent choice to your own systems as it happens." />
      <WebhooksTab websiteId={websiteId} />
    </>
  );
}
