// `/forgot-password`: an owner who forgot their password asks for a reset link by email. The api
// answers every address alike (so nobody learns which have accounts); without email set up on the
// server it says so, and the owner asks an admin for a link instead.
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { AuthCard } from '../../components/auth-card';
import { FormMessage } from '../../components/form-message';
import { Button } from '../../components/ui/button';
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
    <AuthCard title="Forgot your password?" description="Type the email you sign in with: we send it a link to choose a new password.">
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
        <FormMessage tone="failure">{failure}</FormMessage>
        <FormMessage tone="notice">{notice}</FormMessage>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? 'Sending...' : 'Send reset link'}
        </Button>
      </form>
      <Link to="/login" className="block text-center text-sm text-muted-foreground hover:text-foreground">
        Back to sign in
      </Link>
    </AuthCard>
  );
}
