// The owner's websites. One key prefix, ['websites'], so a write refreshes every view of them.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';

export interface Website {
  id: string;
  name: string;
  domain: string;
  isActive: boolean;
  embedCode: string;
  createdAt: string;
}

export function websitesQueryOptions() {
  return queryOptions({
    queryKey: ['websites'],
    queryFn: () => getJson<Website[]>('/api/websites'),
  });
}
