// `/forgot-password`: an owner who forgot their password asks for a reset link by email. The api
// answers every address alike (so nobody learns which have accounts); without email set up on the
// server it says so, and the owner asks an admin for a link instead.
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { ApiError, getServerMessage, sendJson } from '../../lib/api';
import type { ApiAnswer } from '../../lib/api-types';

type ResetSent = ApiAnswer<'/api/auth/forgot-password', 'post', 202>;

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    setNotice(null);
    try {
      const answer = await sendJson<ResetSent>('POST', '/api/auth/forgot-password', { email: email.trim() });
      setNotice(answer.message);
    } catch (error) {
      setFailure(error instanceof ApiError ? getServerMessage(error) : 'Unable to connect to server');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="text-center">
          <CardTitle className="text-2xl">Forgot your password?</CardTitle>
          <CardDescription>Type the email you sign in with: we send it a link to choose a new password.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <form className="space-y-4" onSubmit={(event) => void submit(event)}>
            <div className="space-y-2">
              <Label htmlFor="forgot-email">Email</Label>
              <Input
                id="forgot-email"
                type="email"
                autoComplete="email"
                required
                maxLength={254}
                disabled={busy}
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            </div>
            {failure ? (
              <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
                {failure}
              </p>
            ) : null}
            {notice ? (
              <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900">
                {notice}
              </p>
            ) : null}
            <Button type="submit" className="w-full" disabled={busy}>
              {busy ? 'Sending...' : 'Send reset link'}
            </Button>
          </form>
          <Link to="/login" className="block text-center text-sm text-muted-foreground hover:text-foreground">
            Back to sign in
          </Link>
        </CardContent>
      </Card>
    </main>
  );
}
