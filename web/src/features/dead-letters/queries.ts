// Events a projection could not apply and set aside (admin only; GET /api/admin/dead-letters).
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ApiAnswer, ApiSchemas } from '../../lib/api-types';

export type DeadLetter = ApiSchemas['DeadLetter'];
export type RetryResult = ApiAnswer<'/api/admin/dead-letters/retry', 'post'>;

export function deadLettersQueryOptions() {
  return queryOptions({
    queryKey: ['dead-letters'],
    queryFn: () => getJson<DeadLetter[]>('/api/admin/dead-letters'),
    refetchInterval: 60_000,
  });
}
