// `/admin/installation`: the Installation screen.
import { createFileRoute } from '@tanstack/react-router';
import { InstallationPage } from '../../../../features/installation/installation-page';
import { prefetchInstallationPage } from '../../../../features/installation/queries';

export const Route = createFileRoute('/_app/_admin/admin/installation')({
  loader: ({ context: { queryClient, session } }) => prefetchInstallationPage(queryClient, session),
  component: InstallationPage,
});
