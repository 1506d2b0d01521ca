// `/admin`: the Dashboard in admin mode.
import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../../../features/dashboard/dashboard-page';

export const Route = createFileRoute('/_app/_admin/admin/')({
  component: DashboardPage,
});
