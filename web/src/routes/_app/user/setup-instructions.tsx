// `/user/setup-instructions`: the Setup Guide screen.
import { createFileRoute } from '@tanstack/react-router';
import { SetupGuidePage } from '../../../features/setup-guide/setup-guide-page';
import { prefetchScreenData } from '../../../lib/screen-data';
import { websitesQueryOptions } from '../../../features/websites/queries';

export const Route = createFileRoute('/_app/user/setup-instructions')({
  loader: ({ context: { queryClient } }) => prefetchScreenData([queryClient.ensureQueryData(websitesQueryOptions())]),
  component: SetupGuidePage,
});
