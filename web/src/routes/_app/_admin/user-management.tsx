// `/user-management`: the admins' user management.
import { createFileRoute } from '@tanstack/react-router';
import { UserManagementPage } from '../../../features/users/user-management-page';
import { prefetchScreenData } from '../../../lib/screen-data';
import { adminSubscriptionPlansQueryOptions, managedUsersQueryOptions } from '../../../features/users/queries';

export const Route = createFileRoute('/_app/_admin/user-management')({
  loader: ({ context: { queryClient } }) =>
    prefetchScreenData([queryClient.ensureQueryData(managedUsersQueryOptions()), queryClient.ensureQueryData(adminSubscriptionPlansQueryOptions())]),
  component: UserManagementPage,
});
