// Writes to the owner's websites. Afterwards the websites list, the per-website stats and the plan
// usage are refreshed (their prefixes only; spec section 7).
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest, sendJson } from '../../lib/api';
import { websiteStatsQueryOptions } from '../stats/queries';
import { subscriptionUsageQueryOptions } from '../subscription/queries';
import { websitesQueryOptions, type Website } from './queries';

export interface NewWebsite {
  name: string;
  domain: string;
  /** An admin adding for an owner. */
  ownerId?: string;
}

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
