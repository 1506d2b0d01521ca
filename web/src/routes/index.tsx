// `/`: the public landing page. Content and branding are loaded first so the admin's copy is shown
// at once; when either call fails the page still renders with the default copy.
import { createFileRoute } from '@tanstack/react-router';
import { LandingPage } from '../features/landing/landing-page';
import { publicBrandingQueryOptions, publicWebsiteContentQueryOptions } from '../features/site/queries';

export const Route = createFileRoute('/')({
  loader: ({ context: { queryClient } }) =>
    Promise.allSettled([
      queryClient.ensureQueryData(publicWebsiteContentQueryOptions()),
      queryClient.ensureQueryData(publicBrandingQueryOptions()),
    ]),
  component: LandingPage,
});
