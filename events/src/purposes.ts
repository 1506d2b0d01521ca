// The purpose contract: what a visitor can allow on a website's banner, how the choice was made, and
// which regional rule applied. Consent events, website settings, the widget, the read models and lead
// identification all speak these names, so they are decided here once.
import { z } from 'zod';
import { consentMethods, consentRules, optionalPurposes, regionCodePattern } from './contracts';

// The lists are in the browser-safe contracts entry, which the web app shows from.
export { consentMethods, consentRules, optionalPurposes };

/** Always on: what keeps the site working. Never a choice, never recorded as one. */
export const necessaryPurpose = 'necessary';

/** The purposes a visitor may grant or refuse one by one (GDPR: specific consent, one choice each). */
export const optionalPurpose = z.enum(optionalPurposes);
export type OptionalPurpose = z.infer<typeof optionalPurpose>;

export const purposes = [necessaryPurpose, ...optionalPurposes] as const;
export type Purpose = (typeof purposes)[number];

/**
 * What a banner asked before purposes existed: every consent event of version 1 was an all-or-nothing
 * choice over these (lead identification did not exist yet).
 */
export const legacyPurposes: readonly OptionalPurpose[] = ['preferences', 'analytics', 'marketing'];

/** The purposes a new website's banner asks for until its owner chooses. */
export const defaultWebsitePurposes: readonly OptionalPurpose[] = legacyPurposes;

/** Purposes as a set: no repeats, canonical order (preferences, analytics, marketing, identification). */
export const offeredPurposes = z
  .array(optionalPurpose)
  .max(optionalPurposes.length)
  .refine((list) => list.every((purpose, index) => index === 0 || optionalPurposes.indexOf(list[index - 1]!) < optionalPurposes.indexOf(purpose)), {
    error: `Expected each purpose once, in the order ${optionalPurposes.join(', ')}`,
  });

/** Each optional purpose, granted (true) or not; a purpose the banner did not ask for is false. */
export const grantedPurposes = z.strictObject({
  preferences: z.boolean(),
  analytics: z.boolean(),
  marketing: z.boolean(),
  identification: z.boolean(),
});
export type GrantedPurposes = z.infer<typeof grantedPurposes>;

/** How the purposes were chosen. */
export const consentMethod = z.enum(consentMethods);
export type ConsentMethod = z.infer<typeof consentMethod>;

/**
 * The rule a visitor's region gets: `opt_in` asks before anything optional runs (EU/EEA, UK,
 * Switzerland, Brazil, and anywhere unknown); `opt_out` grants until the visitor opts out (US states
 * with privacy laws); `notice_only` informs without asking.
 */
export const consentRule = z.enum(consentRules);
export type ConsentRule = z.infer<typeof consentRule>;

/** A region a rule is set for: `EU` (the EU and EEA), an ISO 3166-1 country (`GB`) or a subdivision (`US-CA`). */
export const regionCode = z
  .string()
  .regex(regionCodePattern, { error: 'Expected EU, a country code (GB) or a subdivision (US-CA)' });

/** The rule that applied to a choice, and the region it applied for (null: the region was unknown). */
export const appliedRule = z.strictObject({ rule: consentRule, region: regionCode.nullable() });
export type AppliedRule = z.infer<typeof appliedRule>;

export function grantAll(asked: readonly OptionalPurpose[]): GrantedPurposes {
  return {
    preferences: asked.includes('preferences'),
    analytics: asked.includes('analytics'),
    marketing: asked.includes('marketing'),
    identification: asked.includes('identification'),
  };
}

export const grantNone: GrantedPurposes = Object.freeze(grantAll([]));

/** The granted purposes, in the canonical order. */
export function grantedList(granted: GrantedPurposes): OptionalPurpose[] {
  return optionalPurposes.filter((purpose) => granted[purpose]);
}

/** A choice is a consent (ConsentGiven) when it grants at least one optional purpose. */
export function grantsAny(granted: GrantedPurposes): boolean {
  return optionalPurposes.some((purpose) => granted[purpose]);
}
