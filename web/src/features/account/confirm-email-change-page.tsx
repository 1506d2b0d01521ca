// `/confirm-email-change#<token>`: the link sent to an owner's new email. Opening it moves the
// account to that address (once); the token stays in the fragment and goes in a POST body only.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { AuthCard } from '../../components/auth-card';
import { LoadingState } from '../../components/query-state';
import { getServerMessage, sendJson } from '../../lib/api';
import type { ApiAnswer } from '../../lib/api-types';
import { currentUserQueryOptions } from '../auth/queries';

export function ConfirmEmailChangePage({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const confirmation = useQuery({
    queryKey: ['confirm-email-change', token],
    queryFn: () => sendJson<ApiAnswer<'/api/auth/email/confirm', 'post'>>('POST', '/api/auth/email/confirm', { token }),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    enabled: token !== '',
  });

  useEffect(() => {
    // The signed-in owner, if this browser has them, now has the new email.
    if (confirmation.data) void queryClient.invalidateQueries({ queryKey: currentUserQueryOptions().queryKey });
  }, [confirmation.data, queryClient]);

  return (
    <AuthCard title="Confirm your new email" description={confirmation.data ? 'Done.' : 'Changing your email…'}>
      {token === '' || confirmation.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {token === '' ? 'This page needs the whole link from the email, as you received it.' : getServerMessage(confirmation.error)}
        </p>
      ) : confirmation.data ? (
        <p role="status" className="text-sm">
          Your email is now {confirmation.data.user.email}. Sign in with it from now on.
        </p>
      ) : (
        <LoadingState />
      )}
      <Link to="/account" className="block text-sm underline">
        Go to your account
      </Link>
    </AuthCard>
  );
}
