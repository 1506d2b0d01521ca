// `/confirm-email#<token>`: the link a registration emails (when the server sends email). Opening it
// creates the account and signs in; the token stays in the fragment and goes in a POST body only.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { AuthCard } from '../../components/auth-card';
import { LoadingState } from '../../components/query-state';
import { getServerMessage, sendJson } from '../../lib/api';
import type { ApiAnswer } from '../../lib/api-types';
import { currentUserQueryOptions } from './queries';

export function ConfirmEmailPage({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const confirmation = useQuery({
    queryKey: ['confirm-email', token],
    queryFn: () => sendJson<ApiAnswer<'/api/auth/confirm-email', 'post', 201>>('POST', '/api/auth/confirm-email', { token }),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    enabled: token !== '',
  });

  useEffect(() => {
    if (!confirmation.data) return;
    queryClient.setQueryData(currentUserQueryOptions().queryKey, confirmation.data.user);
    router.history.replace('/dashboard');
  }, [confirmation.data, queryClient, router]);

  return (
    <AuthCard title="Confirm your email" description="Finishing your account…">
      {token === '' || confirmation.isError ? (
        <>
          <p role="alert" className="text-sm text-destructive">
            {token === '' ? 'This page needs the whole link from the email, as you received it.' : getServerMessage(confirmation.error)}
          </p>
          <Link to="/login" className="text-sm underline">
            Back to sign in
          </Link>
        </>
      ) : (
        <LoadingState />
      )}
    </AuthCard>
  );
}
