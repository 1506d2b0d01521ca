// The per-website configuration from `GET {host}/api/widget/config/{embedCode}[?lang=xx]`: what the
// banner shows (branding, purposes, services, texts in one language) and the terms a choice is
// remembered under. The answer is treated as untrusted input — it ends up in the host page's DOM — so
// URLs and the colour are checked before use, and every text goes in as text.

import { DEFAULT_PRIMARY, normalizeHex } from './contrast';
import type { Rule } from './choice';
import { purposeList, type Purpose } from './purposes';

/** The languages the server has texts for; anything else gets the website's default language. */
export const LANGUAGES = 'bg cs da de el en es et fi fr ga hr hu it lt lv mt nl pl pt ro sk sl sv ar'.split(' ');

/** A service listed under a purpose in the preference centre. */
export interface Service {
  purpose: Purpose;
  name: string;
  description: string;
  cookies: string[];
}

/**
 * Lead identification, when the website offers it: which forms the capture reads (`all` but those
 * marked `data-consentry-identify="off"`, or only those `marked` `data-consentry-identify`), and the
 * path under {host} of the capture script, loaded only once the visitor allowed identification.
 */
export interface IdentificationConfig {
  /** identify.js reads anything but `all` as `marked`, the narrower reading. */
  forms: unknown;
  /** As answered; what matters is that it reads as a path (it is only ever added to {host}). */
  script: string;
}

export interface WidgetConfig {
  companyName: string;
  logoUrl: string | null;
  primaryColor: string;
  privacyPolicyUrl: string | null;
  policyVersion: string;
  /** The optional purposes the banner asks for. */
  purposes: Purpose[];
  services: Service[];
  consentLifetimeMonths: number;
  /** The website's domain; the shared choice cookie is set on it. */
  domain: string;
  /** The texts, in `language`, written `dir`; hashed by the server as `textsHash`. */
  texts: Record<string, string>;
  language: string;
  dir: 'ltr' | 'rtl';
  textsHash: string | null;
  /** Whether the rule can differ by region; when false every visitor is asked (opt-in). */
  regional: boolean;
  /** null when the website does not identify visitors. */
  identification: IdentificationConfig | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;

/** Only http(s), plus data:image for the logo (the admin stores uploads as data URLs). A
 * `javascript:` privacy link would otherwise run on the visitor's click. */
export function safeUrl(value: unknown, allowDataImage: boolean): string | null {
  const v = str(value);
  return /^https?:\/\//i.test(v) || (allowDataImage && /^data:image\//i.test(v)) ? v : null;
}

/** The config, or null when it lacks what the widget cannot do without (a policy version, purposes, texts). */
export function parseConfig(raw: unknown): WidgetConfig | null {
  const c = obj(raw);
  const policyVersion = str(c.policyVersion);
  const purposes = purposeList(c.purposes);
  const rawTexts = obj(c.texts);
  if (!policyVersion || purposes.length === 0 || !str(rawTexts.acceptAll)) return null;
  const texts: Record<string, string> = {};
  for (const k in rawTexts) texts[k] = str(rawTexts[k]);
  const lifetime = Number(c.consentLifetimeMonths);
  const identification = obj(c.identification);
  return {
    // Without a company name the banner names the site the visitor is on, never Consentry itself.
    companyName: str(c.companyName) || location.hostname,
    logoUrl: safeUrl(c.logoUrl, true),
    primaryColor: normalizeHex(c.primaryColor) || DEFAULT_PRIMARY,
    privacyPolicyUrl: safeUrl(c.privacyPolicyUrl, false),
    policyVersion,
    purposes,
    services: (Array.isArray(c.services) ? c.services : []).map(obj).map((s) => ({
      purpose: purposeList([s.purpose])[0] as Purpose,
      name: str(s.name),
      description: str(s.description),
      cookies: (Array.isArray(s.cookies) ? s.cookies : []).map(str).filter(Boolean),
    })).filter((s) => s.purpose && s.name),
    consentLifetimeMonths: lifetime >= 1 && lifetime <= 24 ? lifetime : 12,
    domain: str(c.domain).toLowerCase() || location.hostname,
    texts,
    language: str(c.language) || 'en',
    dir: c.dir === 'rtl' ? 'rtl' : 'ltr',
    textsHash: /^[0-9a-f]{64}$/.test(str(c.textsHash)) ? str(c.textsHash) : null,
    regional: c.regional === true,
    // Only a path (whatever its type, as what is tested is what gets added to {host}): `{host}/…`
    // cannot leave {host}.
    identification: /^\//.test(identification.script as string) ? (identification as unknown as IdentificationConfig) : null,
  };
}

/** The first of the visitor's languages the server has texts for; '' lets the website's default apply. */
export function pickLanguage(preferred: readonly string[]): string {
  for (const tag of preferred) {
    const primary = String(tag).toLowerCase().split('-')[0] as string;
    if (LANGUAGES.indexOf(primary) >= 0) return primary;
  }
  return '';
}

/** Fetches and parses the config; rejects on network errors, non-2xx (404 unknown, 403 inactive) and
 * unusable bodies, all of which mean: show nothing. */
export async function fetchConfig(host: string, embedCode: string, language: string): Promise<WidgetConfig> {
  const res = await fetch(
    host + '/api/widget/config/' + encodeURIComponent(embedCode) + (language ? '?lang=' + language : ''),
    { credentials: 'omit' },
  );
  if (!res.ok) throw new Error('config ' + res.status);
  const config = parseConfig(await res.json());
  if (!config) throw new Error('config');
  return config;
}

/**
 * The rule for this visitor's region, from `GET {host}/api/widget/rule/{embedCode}` (answered per
 * visitor, so the config itself stays cacheable). Anything but a clear answer is opt-in, the safe rule.
 */
export async function fetchRule(host: string, embedCode: string): Promise<Rule> {
  try {
    const res = await fetch(host + '/api/widget/rule/' + encodeURIComponent(embedCode), { credentials: 'omit' });
    const rule = res.ok ? obj(await res.json()).rule : '';
    return rule === 'opt_out' || rule === 'notice_only' ? rule : 'opt_in';
  } catch {
    return 'opt_in';
  }
}
