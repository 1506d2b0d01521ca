// `/dashboard`: the owner's Dashboard.
import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../features/dashboard/dashboard-page';
import { prefetchDashboard } from '../../features/dashboard/queries';

export const Route = createFileRoute('/_app/dashboard')({
  loader: ({ context: { queryClient, session } }) => prefetchDashboard(queryClient, session),
  component: DashboardPage,
});
