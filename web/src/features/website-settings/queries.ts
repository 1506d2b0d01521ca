// A website's consent and privacy settings (GET/PATCH /api/websites/{id}/settings). The key sits
// under the website's own, ['websites', id, 'settings'], so refreshing the websites refreshes it too.
// Also our own banner texts per language (['banner-texts', language]), the defaults the owner's
// wording replaces: they never change while the app runs.
import { useMutation, useQueryClient, queryOptions } from '@tanstack/react-query';
import { getJson, sendJson } from '../../lib/api';
import type { BannerLanguage } from '../../lib/banner-languages';
import type { OptionalPurpose } from '../../lib/purposes';
import type { BannerPosition, BannerTheme } from '../../lib/snippet';
import { loadShippedTexts, type TextOverrides } from './banner-texts';

import type { ConsentRule, IdentificationForms } from './validation';

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
  /** The banner's language for visitors whose browser languages it does not speak (default en). */
  defaultLanguage: BannerLanguage;
  /** The owner's own wording per language and text; a change sends the whole map. */
  textOverrides: TextOverrides;
  /** The owner's rule per region (`EU`, `GB`, `US-CA`); regions not named keep the default. */
  regionRules: RegionRules;
  /** Ask for consent (opt-in) everywhere, whatever the region. */
  forceOptIn: boolean;
  /**
   * Lead identification: the banner offers the identification purpose. Set through this flag only
   * (the purposes checklist does not offer it on its own); absent from an api that predates it, when
   * `purposes` tells.
   */
  identification?: boolean;
  /** Which forms identify a visitor who allowed it (default `all`). */
  identificationForms?: IdentificationForms;
  /** The most resolutions a month the owner will pay for; null: unlimited (absent from an api that predates it). */
  monthlyResolutionCap?: number | null;
  /** Keep the query strings of recorded page addresses (absent from an api that predates it: off). */
  keepPageQueryStrings?: boolean;
}

export type RegionRules = Partial<Record<string, ConsentRule>>;

export interface PurposeService {
  purpose: OptionalPurpose;
  name: string;
  description: string;
  cookies: string[];
}

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
    mutationFn: (change: Partial<WebsiteSettings>) =>
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
