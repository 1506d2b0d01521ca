// `/admin/settings`: the Settings screen.
import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '../../../../features/settings/settings-page';

export const Route = createFileRoute('/_app/_admin/admin/settings')({
  component: SettingsPage,
});
