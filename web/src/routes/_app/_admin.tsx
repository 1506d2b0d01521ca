// Admin-only screens. A signed-in regular user is refused by being sent to the admin sign-in: these
// screens need the separate admin session, whatever the user's own account may do.
import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/_admin')({
  beforeLoad: ({ context: { session } }) => {
    if (!session.admin) throw redirect({ to: '/admin/login' });
  },
  component: Outlet,
});
