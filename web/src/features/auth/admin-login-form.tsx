// The admin sign-in form (spec sections 2, 4 and 8): idle → busy (inputs and button disabled,
// 'Signing in...') → idle. The answer is read as text and parsed, because a JSON parse error here
// usually means a proxy or the SPA fallback answered with HTML instead of the api.
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import type { ApiSchemas } from '../../lib/api-types';
import { currentAdminQueryOptions } from './queries';

/** Partial: any JSON object is read as an answer, and a refusal by something other than the sign-in (a proxy) lacks its fields. */
type AdminLoginAnswer = Partial<ApiSchemas['AdminLoginAnswer']>;

function parseAdminLoginAnswer(text: string): AdminLoginAnswer {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') return parsed as AdminLoginAnswer;
  } catch {
    // Fall through: not JSON.
  }
  throw new Error('Server returned HTML instead of JSON');
}

export function AdminLoginForm() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  async function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    let answer: AdminLoginAnswer;
    let ok: boolean;
    try {
      const response = await fetch('/api/admin/login', {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      ok = response.ok;
      answer = parseAdminLoginAnswer(await response.text());
    } catch (error) {
      // Network failures and non-JSON answers both mean the api could not be reached properly.
      console.error('Admin login failed:', error);
      toast({ title: 'Login failed', description: 'Unable to connect to server', variant: 'destructive' });
      setBusy(false);
      return;
    }

    if (!ok || !answer.success) {
      toast({ title: 'Login failed', description: answer.error || 'Invalid credentials', variant: 'destructive' });
      setBusy(false);
      return;
    }

    toast({ title: 'Login successful', description: 'Welcome back!' });
    // Refetch even a cached "nobody" answer, so the guard of the admin screens sees the new session.
    const admin = await queryClient.fetchQuery({ ...currentAdminQueryOptions(), staleTime: 0 }).catch(() => null);
    setBusy(false);
    // The generated first-admin password works for one thing only: choosing a new one.
    await navigate({ to: admin?.mustChangePassword ? '/admin/password' : '/admin/websites' });
  }

  return (
    <form className="space-y-4" onSubmit={(event) => void signIn(event)}>
      <div className="space-y-2">
        <Label htmlFor="admin-username">Username</Label>
        <Input
          id="admin-username"
          name="username"
          autoComplete="username"
          required
          disabled={busy}
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="admin-password">Password</Label>
        <Input
          id="admin-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          disabled={busy}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  );
}
