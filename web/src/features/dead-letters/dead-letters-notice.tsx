// Shown to admins on their dashboard only while some projection has set events aside: which events,
// why, and a Retry for when the cause is fixed (the same as `consentry dead-letters retry`).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { getServerMessage, sendJson } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { deadLettersQueryOptions, type RetryResult } from './queries';

export const deadLettersShown = 5;

export function DeadLettersNotice() {
  const letters = useQuery(deadLettersQueryOptions());
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const retry = useMutation({
    mutationFn: () => sendJson<RetryResult>('POST', '/api/admin/dead-letters/retry', {}),
    onSuccess: async (result) => {
      const resolved = result.applied + result.gone;
      toast({
        title: result.stillFailing.length === 0 ? `Resolved ${formatNumber(resolved)} events` : `${formatNumber(result.stillFailing.length)} events still fail`,
        ...(result.stillFailing.length === 0 ? {} : { variant: 'destructive' as const }),
      });
      await queryClient.invalidateQueries({ queryKey: deadLettersQueryOptions().queryKey });
    },
    onError: (error) => toast({ title: `Retry failed: ${getServerMessage(error)}`, variant: 'destructive' }),
  });

  const open = letters.data ?? [];
  if (open.length === 0) return null;
  return (
    <Card role="region" aria-labelledby="dead-letters-title" className="mb-6 border-amber-500">
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="space-y-1.5">
          <CardTitle id="dead-letters-title" className="flex items-center gap-2">
            <TriangleAlert className="size-5 text-amber-700" aria-hidden />
            {open.length === 1 ? '1 event could not be projected' : `${formatNumber(open.length)} events could not be projected`}
          </CardTitle>
          <CardDescription>
            They are kept in the ledger unchanged and left out of the dashboards. Fix the cause, then retry.
          </CardDescription>
        </div>
        <Button variant="outline" disabled={retry.isPending} onClick={() => retry.mutate()}>
          {retry.isPending ? 'Retrying...' : 'Retry'}
        </Button>
      </CardHeader>
      <CardContent>
        <ul className="space-y-2 text-sm">
          {open.slice(0, deadLettersShown).map((letter) => (
            <li key={`${letter.projection}:${letter.eventId}`}>
              <span className="font-medium">{letter.projection}</span> · {letter.eventType} <code className="text-xs">{letter.eventId}</code>
              <p className="text-muted-foreground break-words">{letter.error}</p>
            </li>
          ))}
        </ul>
        {open.length > deadLettersShown ? (
          <p className="mt-2 text-sm text-muted-foreground">
            and {formatNumber(open.length - deadLettersShown)} more (consentry dead-letters list)
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
