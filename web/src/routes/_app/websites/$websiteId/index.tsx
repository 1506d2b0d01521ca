// `/websites/$websiteId`: opens the website's Overview tab.
import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/websites/$websiteId/')({
  beforeLoad: ({ params: { websiteId } }) => {
    throw redirect({ to: '/websites/$websiteId/overview', params: { websiteId }, replace: true });
  },
});
