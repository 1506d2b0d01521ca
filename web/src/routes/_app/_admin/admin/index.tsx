// `/admin`: the Dashboard in admin mode.
import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../../../features/dashboard/dashboard-page';
import { prefetchDashboard } from '../../../../features/dashboard/queries';

export const Route = createFileRoute('/_app/_admin/admin/')({
  loader: ({ context: { queryClient, session } }) => prefetchDashboard(queryClient, session),
  component: DashboardPage,
});
