// A website's consent and privacy settings (GET/PATCH /api/websites/{id}/settings). The key sits
// under the website's own, ['websites', id, 'settings'], so refreshing the websites refreshes it too.
import { useMutation, useQueryClient, queryOptions } from '@tanstack/react-query';
import { getJson, sendJson } from '../../lib/api';
import type { OptionalPurpose } from '../../lib/purposes';
import type { BannerPosition, BannerTheme } from '../../lib/snippet';

export type IpAddressMode = 'truncated' | 'full';

export interface WebsiteSettings {
  retentionMonths: number;
  ipAddressMode: IpAddressMode;
  bannerPosition: BannerPosition;
  bannerTheme: BannerTheme;
  policyVersion: string;
  privacyPolicyUrl: string | null;
  /** The optional purposes the banner asks for (at least one, canonical order). */
  purposes: OptionalPurpose[];
  /** The services and cookies the banner lists under the purposes; a change sends the whole list. */
  services: PurposeService[];
  /** How long a choice stands before the banner asks again (1–24, default 12). */
  consentLifetimeMonths: number;
}

export interface PurposeService {
  purpose: OptionalPurpose;
  name: string;
  description: string;
  cookies: string[];
}

/** The settings the recommendation rules read; only a change of one of them makes the reports stale. */
const recommendationInputs = ['retentionMonths', 'ipAddressMode', 'privacyPolicyUrl'] as const satisfies readonly (keyof WebsiteSettings)[];

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
    onSuccess: async (settings, change) => {
      queryClient.setQueryData(websiteSettingsQueryOptions(websiteId).queryKey, settings);
      if (recommendationInputs.some((name) => change[name] !== undefined)) {
        await queryClient.invalidateQueries({ queryKey: ['recommendations'] });
      }
    },
  });
}
