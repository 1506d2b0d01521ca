// The rules of the website settings form, the api's (their bounds and choices come from
// @consentry/events/contracts): retention a whole number of months from 1 to 120 (default 24, spec
// sections 5 and 9), an http(s) privacy policy URL or none, a policy version of 1 to 64 characters,
// and the consent purposes, services and lifetime below.
import {
  consentLifetimeMonthsMax,
  consentLifetimeMonthsMin,
  identificationFormModes,
  maxBannerTextLength,
  maxCookieNameLength,
  maxPolicyVersionLength,
  maxServiceCookies,
  maxServiceDescriptionLength,
  maxServiceNameLength,
  monthlyResolutionCapMax,
  regionCodePattern,
  retentionMonthsMax,
  retentionMonthsMin,
  type ConsentRule,
  type IdentificationForms,
} from '@consentry/events/contracts';

export {
  consentLifetimeMonthsMax,
  consentLifetimeMonthsMin,
  consentRules,
  defaultConsentLifetimeMonths,
  defaultIdentificationForms,
  identificationFormModes,
  maxBannerTextLength,
  maxCookieNameLength,
  maxRegionRules,
  maxServiceCookies,
  maxServiceDescriptionLength,
  maxServiceNameLength,
  maxServices,
  monthlyResolutionCapMax,
  retentionMonthsMax,
  retentionMonthsMin,
  type ConsentRule,
  type IdentificationForms,
} from '@consentry/events/contracts';

export const defaultRetentionMonths = 24;
/** What the privacy text promises: consent data is kept up to 2 years. */
export const promisedRetentionMonths = 24;

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

export const retentionProblem = `Enter a whole number of months from ${retentionMonthsMin} to ${retentionMonthsMax}.`;

export function checkRetentionMonths(input: string): Checked<number> {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return { ok: false, problem: retentionProblem };
  const months = Number(text);
  if (months < retentionMonthsMin || months > retentionMonthsMax) return { ok: false, problem: retentionProblem };
  return { ok: true, value: months };
}

export function checkPrivacyPolicyUrl(input: string): Checked<string | null> {
  const text = input.trim();
  if (text === '') return { ok: true, value: null };
  const problem = 'Enter a full http or https address, such as https://example.com/privacy.';
  if (text.length > 2048) return { ok: false, problem: 'Use an address of at most 2048 characters.' };
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, problem };
  } catch {
    return { ok: false, problem };
  }
  return { ok: true, value: text };
}

export function checkPolicyVersion(input: string): Checked<string> {
  const text = input.trim();
  if (text.length < 1 || text.length > maxPolicyVersionLength) {
    return { ok: false, problem: `Enter a policy version of 1 to ${maxPolicyVersionLength} characters.` };
  }
  return { ok: true, value: text };
}

// Consent purposes, the services listed under them and the consent lifetime, by the api's rules: at
// least one purpose; at most 200 services, each with a name of 1 to 100 characters, a description of
// at most 300 and at most 50 cookie names of 1 to 100 characters; a lifetime of 1 to 24 months
// (default 12).

export const purposesProblem = 'Choose at least one purpose to ask for.';
export const consentLifetimeProblem = `Enter a whole number of months from ${consentLifetimeMonthsMin} to ${consentLifetimeMonthsMax}.`;

export function checkPurposes<T>(purposes: readonly T[]): Checked<T[]> {
  return purposes.length === 0 ? { ok: false, problem: purposesProblem } : { ok: true, value: [...purposes] };
}

export function checkConsentLifetimeMonths(input: string): Checked<number> {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return { ok: false, problem: consentLifetimeProblem };
  const months = Number(text);
  if (months < consentLifetimeMonthsMin || months > consentLifetimeMonthsMax) return { ok: false, problem: consentLifetimeProblem };
  return { ok: true, value: months };
}

/** `_ga, _gid,` → `['_ga', '_gid']`: names separated by commas, blanks between them left out. */
export function parseCookieNames(input: string): string[] {
  return input
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
}

/** The cookie names as the editor shows them: `_ga, _gid`. */
export function formatCookieNames(cookies: readonly string[]): string {
  return cookies.join(', ');
}

export function checkServiceName(input: string): Checked<string> {
  const text = input.trim();
  if (text.length === 0) return { ok: false, problem: 'Enter the name of the service.' };
  if (text.length > maxServiceNameLength) return { ok: false, problem: `Use a name of at most ${maxServiceNameLength} characters.` };
  return { ok: true, value: text };
}

export function checkServiceDescription(input: string): Checked<string> {
  const text = input.trim();
  if (text.length > maxServiceDescriptionLength) {
    return { ok: false, problem: `Use a description of at most ${maxServiceDescriptionLength} characters.` };
  }
  return { ok: true, value: text };
}

export function checkCookieNames(input: string): Checked<string[]> {
  const names = parseCookieNames(input);
  if (names.length > maxServiceCookies) return { ok: false, problem: `List at most ${maxServiceCookies} cookies.` };
  const long = names.find((name) => name.length > maxCookieNameLength);
  if (long !== undefined) return { ok: false, problem: `Use cookie names of at most ${maxCookieNameLength} characters.` };
  return { ok: true, value: names };
}

// Languages: the owner's own wording of a banner text is 1 to 600 characters and not blank (empty
// means "use ours"); a text that leaves out a placeholder our text has is allowed, with a warning.

export const blankBannerTextProblem = 'Enter a text, or leave it empty to use ours.';

/** An override as typed: null for none (empty), else the trimmed text. */
export function checkBannerText(input: string): Checked<string | null> {
  if (input === '') return { ok: true, value: null };
  const text = input.trim();
  if (text.length === 0) return { ok: false, problem: blankBannerTextProblem };
  if (text.length > maxBannerTextLength) {
    return { ok: false, problem: `Use at most ${maxBannerTextLength} characters (this text has ${text.length}).` };
  }
  return { ok: true, value: text };
}

/** The placeholders (`{company}`, `{purpose}`) our text has and the owner's leaves out. */
export function findMissingPlaceholders(ours: string, text: string, placeholders: readonly string[] = ['{company}', '{purpose}']): string[] {
  if (text.trim() === '') return [];
  return placeholders.filter((placeholder) => ours.includes(placeholder) && !text.includes(placeholder));
}

export function describeMissingPlaceholders(missing: readonly string[]): string | null {
  if (missing.length === 0) return null;
  const names = missing.join(' and ');
  return `Our text has ${names}, which the banner fills in; yours leaves ${missing.length === 1 ? 'it' : 'them'} out.`;
}

// Rules by region, the api's: a region is `EU`, a country code (`GB`) or a subdivision (`US-CA`),
// each named once, at most 300 of them.

export const consentRuleLabels: Record<ConsentRule, string> = {
  opt_in: 'Opt-in',
  opt_out: 'Opt-out',
  notice_only: 'Notice only',
};

export const regionCodeProblem = 'Enter EU, a country code such as GB or a US state such as US-CA.';
export const duplicateRegionProblem = 'This region already has a rule above.';

/** A region as typed (any case, spaces around it) to the code the api takes. */
export function checkRegionCode(input: string): Checked<string> {
  const code = input.trim().toUpperCase();
  return regionCodePattern.test(code) ? { ok: true, value: code } : { ok: false, problem: regionCodeProblem };
}

// Lead identification: which forms identify a visitor who allowed it (events/src/website.ts).

/** The id of the Lead identification section, so the Leads screen can link straight to it. */
export const leadIdentificationAnchor = 'lead-identification';

export const identificationFormLabels: Record<IdentificationForms, string> = {
  all: 'All forms with an email field, except those marked data-consentry-identify="off"',
  marked: 'Only forms marked data-consentry-identify',
};

export function isIdentificationForms(value: unknown): value is IdentificationForms {
  return identificationFormModes.some((mode) => mode === value);
}

/** The most resolutions a month the owner will pay for on a website (docs/identification.md, "Limits"). */
export const resolutionCapProblem = 'Leave it empty for no limit, or enter a whole number from 1 to 10,000,000.';

/** The cap field: empty is unlimited (null). */
export function checkMonthlyResolutionCap(input: string): Checked<number | null> {
  const text = input.trim().replace(/[,\s]/g, '');
  if (text === '') return { ok: true, value: null };
  if (!/^\d+$/.test(text)) return { ok: false, problem: resolutionCapProblem };
  const cap = Number(text);
  if (cap < 1 || cap > monthlyResolutionCapMax) return { ok: false, problem: resolutionCapProblem };
  return { ok: true, value: cap };
}
