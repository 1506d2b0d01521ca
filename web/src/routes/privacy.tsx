// `/privacy`: the privacy policy and cookie notice.
import { createFileRoute } from '@tanstack/react-router';
import { PrivacyPage } from '../features/privacy/privacy-page';
import { prefetchScreenData } from '../lib/screen-data';
import { publicBrandingQueryOptions } from '../features/site/queries';

export const Route = createFileRoute('/privacy')({
  loader: ({ context: { queryClient } }) => prefetchScreenData([queryClient.ensureQueryData(publicBrandingQueryOptions())]),
  component: PrivacyPage,
});
