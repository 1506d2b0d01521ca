// Events a projection could not apply and set aside (admin only; GET /api/admin/dead-letters).
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';

export interface DeadLetter {
  projection: string;
  eventId: string;
  eventType: string;
  position: number;
  error: string;
  attempts: number;
  firstFailedAt: string;
  lastFailedAt: string;
  resolvedAt: string | null;
}

export interface RetryResult {
  applied: number;
  gone: number;
  stillFailing: Array<{ projection: string; eventId: string; error: string }>;
}

export function deadLettersQueryOptions() {
  return queryOptions({
    queryKey: ['dead-letters'],
    queryFn: () => getJson<DeadLetter[]>('/api/admin/dead-letters'),
    refetchInterval: 60_000,
  });
}
