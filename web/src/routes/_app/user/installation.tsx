// `/user/installation`: the Installation screen.
import { createFileRoute } from '@tanstack/react-router';
import { InstallationPage } from '../../../features/installation/installation-page';

export const Route = createFileRoute('/_app/user/installation')({
  component: InstallationPage,
});
