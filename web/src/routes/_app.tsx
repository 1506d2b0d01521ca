// The signed-in area: every route below needs a user or admin session. Signed-out visitors are sent
// to /login, which returns them here afterwards.
import { createFileRoute, redirect } from '@tanstack/react-router';
import { loadSession } from '../features/auth/queries';
import { AppLayout } from '../features/layout/app-layout';

export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context: { queryClient }, location }) => {
    const session = await loadSession(queryClient);
    if (!session.user && !session.admin) {
      throw redirect({ to: '/login', search: { redirect: location.href } });
    }
    // An admin signed in with the generated first password may do nothing before replacing it.
    if (session.admin?.mustChangePassword) throw redirect({ to: '/admin/password' });
    return { session };
  },
  component: AppLayout,
});
