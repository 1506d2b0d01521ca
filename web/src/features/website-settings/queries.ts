// A website's consent and privacy settings (GET/PATCH /api/websites/{id}/settings). The key sits
// under the website's own, ['websites', id, 'settings'], so refreshing the websites refreshes it too.
import { useMutation, useQueryClient, queryOptions } from '@tanstack/react-query';
import { getJson, sendJson } from '../../lib/api';
import type { BannerPosition, BannerTheme } from '../../lib/snippet';

export type IpAddressMode = 'truncated' | 'full';

export interface WebsiteSettings {
  retentionMonths: number;
  ipAddressMode: IpAddressMode;
  bannerPosition: BannerPosition;
  bannerTheme: BannerTheme;
  policyVersion: string;
  privacyPolicyUrl: string | null;
}

export function websiteSettingsQueryOptions(websiteId: string) {
  return queryOptions({
    queryKey: ['websites', websiteId, 'settings'],
    queryFn: () => getJson<WebsiteSettings>(`/api/websites/${encodeURIComponent(websiteId)}/settings`),
  });
}

/** Sends only the settings that changed; the api answers the whole settings object. */
export function useUpdateWebsiteSettings(websiteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<WebsiteSettings>) =>
      sendJson<WebsiteSettings>('PATCH', `/api/websites/${encodeURIComponent(websiteId)}/settings`, change),
    onSuccess: async (settings) => {
      queryClient.setQueryData(websiteSettingsQueryOptions(websiteId).queryKey, settings);
      // Retention, IP address mode and the privacy policy link are inputs of the recommendation rules.
      await queryClient.invalidateQueries({ queryKey: ['recommendations'] });
    },
  });
}
