// `/user-management`: the admins' user management.
import { createFileRoute } from '@tanstack/react-router';
import { UserManagementPage } from '../../../features/users/user-management-page';

export const Route = createFileRoute('/_app/_admin/user-management')({
  component: UserManagementPage,
});
