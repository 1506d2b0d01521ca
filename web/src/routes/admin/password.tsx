// `/admin/password`: an admin chooses a new password. The first sign-in with the generated password
// lands here, and every signed-in screen sends such an admin back here until it is done.
import { createFileRoute, redirect } from '@tanstack/react-router';
import { KeyRound } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { AdminPasswordForm } from '../../features/auth/admin-password-form';
import { loadSession } from '../../features/auth/queries';

export const Route = createFileRoute('/admin/password')({
  beforeLoad: async ({ context: { queryClient } }) => {
    const session = await loadSession(queryClient);
    if (!session.admin) throw redirect({ to: '/admin/login' });
    return { admin: session.admin };
  },
  component: AdminPasswordPage,
});

function AdminPasswordPage() {
  const { admin } = Route.useRouteContext();
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 p-4">
      <Card className="w-full max-w-sm">
        <CardHeader className="items-center text-center">
          <KeyRound className="size-10 text-primary" aria-hidden />
          <CardTitle className="text-2xl">Choose a new password</CardTitle>
          <CardDescription>
            {admin.mustChangePassword
              ? `Signed in as ${admin.username} with the password generated at the first start. Choose your own to go on.`
              : `Signed in as ${admin.username}.`}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <AdminPasswordForm />
        </CardContent>
      </Card>
    </main>
  );
}
