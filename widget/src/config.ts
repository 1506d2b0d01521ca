// The per-website configuration from `GET {host}/api/widget/config/{embedCode}`: what the banner shows
// and the policy version a choice is remembered for. The answer is treated as untrusted input — it ends
// up in the host page's DOM — so URLs and the colour are checked before use.

import { DEFAULT_PRIMARY, normalizeHex } from './contrast';

/** The fields the widget uses (websiteId and language are not: the texts are English for now). */
export interface WidgetConfig {
  companyName: string;
  logoUrl: string | null;
  primaryColor: string;
  privacyPolicyUrl: string | null;
  policyVersion: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** Only http(s), plus data:image for the logo (the admin stores uploads as data URLs). A
 * `javascript:` privacy link would otherwise run on the visitor's click. */
export function safeUrl(value: unknown, allowDataImage: boolean): string | null {
  const v = str(value);
  return /^https?:\/\//i.test(v) || (allowDataImage && /^data:image\//i.test(v)) ? v : null;
}

/** The config, or null when it lacks what the widget cannot do without (a policy version). */
export function parseConfig(raw: unknown): WidgetConfig | null {
  const c = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const policyVersion = str(c.policyVersion);
  if (!policyVersion) return null;
  return {
    // Without a company name the banner names the site the visitor is on, never Consentry itself.
    companyName: str(c.companyName) || location.hostname,
    logoUrl: safeUrl(c.logoUrl, true),
    primaryColor: normalizeHex(c.primaryColor) || DEFAULT_PRIMARY,
    privacyPolicyUrl: safeUrl(c.privacyPolicyUrl, false),
    policyVersion,
  };
}

/** Fetches and parses the config; rejects on network errors, non-2xx (404 unknown, 403 inactive) and
 * unusable bodies, all of which mean: show nothing. */
export async function fetchConfig(host: string, embedCode: string): Promise<WidgetConfig> {
  const res = await fetch(host + '/api/widget/config/' + encodeURIComponent(embedCode), { credentials: 'omit' });
  if (!res.ok) throw new Error('config ' + res.status);
  const config = parseConfig(await res.json());
  if (!config) throw new Error('config');
  return config;
}
