// A website's public widget config (GET /api/widget/config/{embedCode}?lang={code}, docs/ingest-
// protocol.md) in one language: the texts with the owner's wording applied, their direction, the
// purposes asked for and the services under them, as the banner and preference centre show them.
// Keyed ['widget-config', embedCode, language]; saving website settings marks these stale.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { prefetchScreenData } from '../../lib/screen-data';
import type { Session } from '../auth/queries';
import { ownerBrandingQueryOptions, publicBrandingQueryOptions } from '../site/queries';
import { websitesQueryOptions } from '../websites/queries';
import type { BannerLanguage } from '../../lib/banner-languages';
import type { OptionalPurpose } from '../../lib/purposes';

export interface WidgetConfigService {
  purpose: OptionalPurpose;
  name: string;
  description: string;
  cookies: string[];
}

export interface WidgetConfig {
  companyName: string;
  primaryColor: string;
  privacyPolicyUrl: string | null;
  purposes: OptionalPurpose[];
  services: WidgetConfigService[];
  language: BannerLanguage;
  dir: 'ltr' | 'rtl';
  texts: Partial<Record<string, string>>;
}

/** `language` null: the website's default language, as a visitor whose languages the banner lacks gets it. */
export function widgetConfigQueryOptions(embedCode: string, language: BannerLanguage | null) {
  return queryOptions({
    queryKey: ['widget-config', embedCode, language],
    queryFn: async () => {
      const query = language ? `?lang=${encodeURIComponent(language)}` : '';
      // The config is cacheable for a minute; revalidating (a 304 when unchanged) shows wording saved a moment ago.
      const response = await fetch(`/api/widget/config/${encodeURIComponent(embedCode)}${query}`, { credentials: 'include', cache: 'no-cache' });
      if (!response.ok) throw new ApiError(response.status, response.statusText, await response.text().catch(() => ''));
      return (await response.json()) as WidgetConfig;
    },
  });
}

/**
 * What the Installation screen reads on entry, for its routes' loaders: the websites, and the
 * branding its previews wear (an owner's own, or the installation's for an admin).
 */
export function prefetchInstallationPage(queryClient: QueryClient, session: Session): void {
  return prefetchScreenData([
    queryClient.ensureQueryData(websitesQueryOptions()),
    queryClient.ensureQueryData(session.user ? ownerBrandingQueryOptions() : publicBrandingQueryOptions()),
  ]);
}
