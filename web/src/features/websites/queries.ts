// The owner's websites. One key prefix, ['websites'], so a write refreshes every view of them.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ApiSchemas } from '../../lib/api-types';

export type Website = ApiSchemas['Website'];

export function websitesQueryOptions() {
  return queryOptions({
    queryKey: ['websites'],
    queryFn: () => getJson<Website[]>('/api/websites'),
  });
}
