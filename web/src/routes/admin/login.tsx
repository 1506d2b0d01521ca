// `/admin/login`: the separate username-and-password sign-in for admins.
import { createFileRoute, Link } from '@tanstack/react-router';
import { ShieldCheck } from 'lucide-react';
import { AdminLoginForm } from '../../features/auth/admin-login-form';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';

export const Route = createFileRoute('/admin/login')({
  component: AdminLoginPage,
});

function AdminLoginPage() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 p-4">
      <Card className="w-full max-w-sm">
        <CardHeader className="items-center text-center">
          <ShieldCheck className="size-10 text-primary" aria-hidden />
          <CardTitle className="text-2xl">Admin Login</CardTitle>
          <CardDescription>Sign in with your admin username and password.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <AdminLoginForm />
          <p className="text-center text-sm">
            <Link to="/" className="text-muted-foreground hover:text-foreground">
              Back to home
            </Link>
          </p>
        </CardContent>
      </Card>
    </main>
  );
}
