// Email-and-password sign-in and account creation for website owners. Both POST JSON and answer
// `{ user }`; a refusal answers `{ error: { code, message } }`, whose message is shown under the form.
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormMessage } from '../../components/form-message';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { ApiError, getServerMessage, sendJson } from '../../lib/api';
import type { ApiAnswer } from '../../lib/api-types';
import { currentUserQueryOptions } from './queries';

type AuthAnswer = ApiAnswer<'/api/auth/login', 'post'>;
/** 201 signed in; 202 when the server sends confirmation emails: the same answer for every address. */
type RegistrationAnswer = ApiAnswer<'/api/auth/register', 'post', 201> | ApiAnswer<'/api/auth/register', 'post', 202>;

export type AuthMode = 'sign-in' | 'register';

/** The api's bounds for a new password. */
export const minPasswordLength = 8;
const maxPasswordLength = 128;

function describeFailure(error: unknown): string {
  return error instanceof ApiError ? getServerMessage(error) : 'Unable to connect to server';
}

export function OwnerLoginForm({ mode, onSignedIn }: { mode: AuthMode; onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const idPrefix = mode === 'sign-in' ? 'sign-in' : 'register';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    setNotice(null);
    try {
      const answer =
        mode === 'sign-in'
          ? await sendJson<AuthAnswer>('POST', '/api/auth/login', { email, password })
          : await sendJson<RegistrationAnswer>('POST', '/api/auth/register', { email, password, firstName, lastName });
      if ('status' in answer) {
        setNotice(answer.message);
        return;
      }
      queryClient.setQueryData(currentUserQueryOptions().queryKey, answer.user);
      onSignedIn();
    } catch (error) {
      setFailure(describeFailure(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="space-y-4" onSubmit={(event) => void submit(event)}>
      {mode === 'register' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-2">
            <Label htmlFor={`${idPrefix}-first-name`}>First name</Label>
            <Input
              id={`${idPrefix}-first-name`}
              autoComplete="given-name"
              required
              maxLength={100}
              disabled={busy}
              value={firstName}
              onChange={(event) => setFirstName(event.target.value)}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor={`${idPrefix}-last-name`}>Last name</Label>
            <Input
              id={`${idPrefix}-last-name`}
              autoComplete="family-name"
              required
              maxLength={100}
              disabled={busy}
              value={lastName}
              onChange={(event) => setLastName(event.target.value)}
            />
          </div>
        </div>
      ) : null}
      <div className="space-y-2">
        <Label htmlFor={`${idPrefix}-email`}>Email</Label>
        <Input
          id={`${idPrefix}-email`}
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          disabled={busy}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${idPrefix}-password`}>Password</Label>
        <Input
          id={`${idPrefix}-password`}
          type="password"
          autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
          required
          minLength={mode === 'register' ? minPasswordLength : undefined}
          maxLength={maxPasswordLength}
          aria-describedby={mode === 'register' ? `${idPrefix}-password-hint` : undefined}
          disabled={busy}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {mode === 'register' ? (
          <p id={`${idPrefix}-password-hint`} className="text-xs text-muted-foreground">
            At least {minPasswordLength} characters and hard to guess: a few unrelated words work well; common passwords and your own name or email are refused.
          </p>
        ) : null}
      </div>
      <FormMessage tone="failure">{failure}</FormMessage>
      <FormMessage tone="notice">{notice}</FormMessage>
      <Button type="submit" className="w-full" disabled={busy}>
        {mode === 'sign-in' ? (busy ? 'Signing in...' : 'Sign in') : busy ? 'Creating account...' : 'Create account'}
      </Button>
    </form>
  );
}
