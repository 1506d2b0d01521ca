// `/login`: website owners sign in or create an account with email and password.
import { Link, useRouter } from '@tanstack/react-router';
import { AuthCard } from '../../components/auth-card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { OwnerLoginForm } from './login-forms';

export function LoginPage({ redirectTo }: { redirectTo?: string }) {
  const router = useRouter();

  function goOn() {
    router.history.push(redirectTo ?? '/dashboard');
  }

  return (
    <AuthCard title="Welcome" description="Sign in to manage your websites and consent data." contentClassName="space-y-6">
      <Tabs defaultValue="sign-in">
        <TabsList className="grid w-full grid-cols-2">
          <TabsTrigger value="sign-in">Sign in</TabsTrigger>
          <TabsTrigger value="register">Create account</TabsTrigger>
        </TabsList>
        <TabsContent value="sign-in" className="space-y-4">
          <OwnerLoginForm mode="sign-in" onSignedIn={goOn} />
          <p className="text-center text-sm">
            <Link to="/forgot-password" className="text-muted-foreground underline hover:text-foreground">
              Forgot your password?
            </Link>
          </p>
        </TabsContent>
        <TabsContent value="register">
          <OwnerLoginForm mode="register" onSignedIn={goOn} />
        </TabsContent>
      </Tabs>
      <div className="flex justify-between text-sm">
        <Link to="/" className="text-muted-foreground hover:text-foreground">
          Back to home
        </Link>
        <Link to="/admin/login" className="text-muted-foreground hover:text-foreground">
          Admin sign in
        </Link>
      </div>
    </AuthCard>
  );
}
