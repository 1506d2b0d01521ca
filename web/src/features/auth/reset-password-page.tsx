// `/reset-password#<token>`: choosing a new password through a reset link (emailed, or handed over
// by an admin). The token stays in the fragment and goes in POST bodies only. Setting the password
// signs the owner out everywhere else and signs this browser in.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { AuthCard } from '../../components/auth-card';
import { FormMessage } from '../../components/form-message';
import { LoadingState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { getServerMessage, sendJson } from '../../lib/api';
import type { ApiAnswer } from '../../lib/api-types';
import { minPasswordLength } from './login-forms';
import { currentUserQueryOptions } from './queries';
import { NewPasswordFields, repeatDiffers } from './new-password-fields';

export function ResetPasswordPage({ token }: { token: string }) {
  const reset = useQuery({
    queryKey: ['password-reset', token],
    queryFn: () => sendJson<ApiAnswer<'/api/auth/reset-password/check', 'post'>>('POST', '/api/auth/reset-password/check', { token }),
    retry: false,
    staleTime: Infinity,
    enabled: token !== '',
  });
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const router = useRouter();
  const mismatch = repeatDiffers(password, repeated);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password !== repeated) return;
    setBusy(true);
    setFailure(null);
    try {
      const { user } = await sendJson<ApiAnswer<'/api/auth/reset-password', 'post'>>('POST', '/api/auth/reset-password', { token, newPassword: password });
      queryClient.setQueryData(currentUserQueryOptions().queryKey, user);
      router.history.replace('/dashboard');
    } catch (error) {
      setFailure(getServerMessage(error));
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Choose a new password" description={reset.data ? `For ${reset.data.email}. Your other devices will be signed out.` : 'Checking your link…'}>
      {token === '' || reset.isError ? (
        <>
          <p role="alert" className="text-sm text-destructive">
            {token === '' ? 'This page needs the whole link, as you received it.' : getServerMessage(reset.error)}
          </p>
          <Link to="/forgot-password" className="text-sm underline">
            Ask for a new link
          </Link>
        </>
      ) : reset.data ? (
        <form className="space-y-4" onSubmit={(event) => void submit(event)}>
          {/* Lets a password manager save the new password under the right account. */}
          <input type="email" autoComplete="username" value={reset.data.email} readOnly hidden />
          <NewPasswordFields
            idPrefix="reset"
            password={password}
            repeated={repeated}
            onPasswordChange={setPassword}
            onRepeatedChange={setRepeated}
            disabled={busy}
            hint={`At least ${minPasswordLength} characters and hard to guess: a few unrelated words work well; common passwords and your own name or email are refused.`}
            mismatchText="The two passwords differ: type the same password twice."
          />
          <FormMessage tone="failure">{failure}</FormMessage>
          <Button type="submit" className="w-full" disabled={busy || mismatch}>
            {busy ? 'Saving...' : 'Set new password'}
          </Button>
        </form>
      ) : (
        <LoadingState />
      )}
    </AuthCard>
  );
}
