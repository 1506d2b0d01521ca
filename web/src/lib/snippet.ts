// The embed snippet owners paste into their site (spec section 7): widget.js from this product's own
// host, configured by data-* attributes. Defaults are position bottom and theme light.
import type { BannerPosition, BannerTheme } from '@consentry/events/contracts';

export type { BannerPosition, BannerTheme } from '@consentry/events/contracts';

export const defaultBannerPosition: BannerPosition = 'bottom';
export const defaultBannerTheme: BannerTheme = 'light';

export interface SnippetOptions {
  host: string;
  embedCode: string;
  position?: BannerPosition;
  theme?: BannerTheme;
}

/** The public origin the app (and so widget.js) is served from. */
export function getProductHost(): string {
  return window.location.origin;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function buildEmbedSnippet({
  host,
  embedCode,
  position = defaultBannerPosition,
  theme = defaultBannerTheme,
}: SnippetOptions): string {
  return `<script src="${escapeAttribute(host)}/widget.js" data-embed-code="${escapeAttribute(embedCode)}" data-position="${position}" data-theme="${theme}" defer></script>`;
}
