// `/admin/settings`: the Settings screen.
import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '../../../../features/settings/settings-page';
import { prefetchSettingsPage } from '../../../../features/settings/queries';

export const Route = createFileRoute('/_app/_admin/admin/settings')({
  loader: ({ context: { queryClient, session } }) => prefetchSettingsPage(queryClient, session),
  component: SettingsPage,
});
