// Writes to the owner's websites. Afterwards the websites list, the per-website stats and the plan
// usage are refreshed (their prefixes only; spec section 7).
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest, sendJson } from '../../lib/api';
import { websiteStatsQueryOptions } from '../stats/queries';
import { subscriptionUsageQueryOptions } from '../subscription/queries';
import type { ApiBody } from '../../lib/api-types';
import { websitesQueryOptions, type Website } from './queries';

/** `ownerId`: an admin adding for an owner. */
export type NewWebsite = ApiBody<'/api/websites', 'post'>;

async function refreshAfterWebsiteChange(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: websitesQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: websiteStatsQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: subscriptionUsageQueryOptions().queryKey }),
  ]);
}

export function useAddWebsite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (website: NewWebsite) => sendJson<Website>('POST', '/api/websites', website),
    onSuccess: () => refreshAfterWebsiteChange(queryClient),
  });
}

export function useDeleteWebsite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (websiteId: string) => {
      await apiRequest('DELETE', `/api/websites/${encodeURIComponent(websiteId)}`);
    },
    onSuccess: () => refreshAfterWebsiteChange(queryClient),
  });
}
