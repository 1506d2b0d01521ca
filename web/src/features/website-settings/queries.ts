// A website's consent and privacy settings (GET/PATCH /api/websites/{id}/settings). The key sits
// under the website's own, ['websites', id, 'settings'], so refreshing the websites refreshes it too.
// Also our own banner texts per language (['banner-texts', language]), the defaults the owner's
// wording replaces: they never change while the app runs.
import { useMutation, useQueryClient, queryOptions } from '@tanstack/react-query';
import { getJson, sendJson } from '../../lib/api';
import type { ApiBody, ApiSchemas } from '../../lib/api-types';
import type { BannerLanguage } from '../../lib/banner-languages';
import { loadShippedTexts } from './banner-texts';

/**
 * The settings as the api answers them; the documentation of each field is the api's (its zod
 * schemas, through api-schema.gen.ts). `identification` is set through its own switch only (the
 * purposes checklist does not offer it); a change of `services`, `textOverrides` or `regionRules`
 * sends the whole list or map.
 */
export type WebsiteSettings = ApiSchemas['WebsiteSettings'];
/** What a PATCH may change: only what changed is sent, and the api answers the whole settings. */
export type WebsiteSettingsChange = ApiBody<'/api/websites/{id}/settings', 'patch'>;
export type IpAddressMode = WebsiteSettings['ipAddressMode'];
export type RegionRules = WebsiteSettings['regionRules'];
export type PurposeService = WebsiteSettings['services'][number];

/** The settings the recommendation rules read; only a change of one of them makes the reports stale. */
const recommendationInputs = ['retentionMonths', 'ipAddressMode', 'privacyPolicyUrl'] as const satisfies readonly (keyof WebsiteSettings)[];

/** The settings the widget config carries (Installation previews it): a change of one makes it stale. */
const widgetConfigInputs = [
  'bannerPosition',
  'bannerTheme',
  'policyVersion',
  'privacyPolicyUrl',
  'purposes',
  'services',
  'consentLifetimeMonths',
  'defaultLanguage',
  'textOverrides',
  'forceOptIn',
  'identification',
  'identificationForms',
] as const satisfies readonly (keyof WebsiteSettings)[];

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
    mutationFn: (change: WebsiteSettingsChange) =>
      sendJson<WebsiteSettings>('PATCH', `/api/websites/${encodeURIComponent(websiteId)}/settings`, change),
    onSuccess: async (settings, change) => {
      queryClient.setQueryData(websiteSettingsQueryOptions(websiteId).queryKey, settings);
      const stale: Promise<void>[] = [];
      if (recommendationInputs.some((name) => change[name] !== undefined)) {
        stale.push(queryClient.invalidateQueries({ queryKey: ['recommendations'] }));
      }
      if (widgetConfigInputs.some((name) => change[name] !== undefined)) {
        stale.push(queryClient.invalidateQueries({ queryKey: ['widget-config'] }));
      }
      await Promise.all(stale);
    },
  });
}

export function shippedBannerTextsQueryOptions(language: BannerLanguage) {
  return queryOptions({
    queryKey: ['banner-texts', language],
    queryFn: () => loadShippedTexts(language),
  });
}
