// Regions and the consent rule each gets. A visitor's country (and, in the US, state) names a region;
// EU and EEA member states share one (`EU`), as GDPR and the ePrivacy rules apply to all of them.
import type { AppliedRule, ConsentRule } from './purposes';

/** The EU's 27 member states plus the EEA's Iceland, Liechtenstein and Norway. */
export const euEeaCountries: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU',
  'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO',
]);

/**
 * The region of a visitor located in `country` (ISO 3166-1 alpha-2) and, when known, `subdivision`
 * (the ISO 3166-2 code's part after the dash, `CA`); null when the country is unknown.
 */
export function regionOf(country: string | null, subdivision: string | null = null): string | null {
  if (!country) return null;
  if (euEeaCountries.has(country)) return 'EU';
  return subdivision ? `${country}-${subdivision}` : country;
}

/** The rule for a region until per-region rules are set: opt-in everywhere, the safe default. */
export const defaultRule: ConsentRule = 'opt_in';

export function appliedRuleFor(region: string | null, rule: ConsentRule = defaultRule): AppliedRule {
  return { rule, region };
}

/**
 * US states with a comprehensive consumer-privacy law of the opt-out kind (a right to opt out of the
 * sale or sharing of personal data, and to have Global Privacy Control honoured), California first.
 */
export const usOptOutStates: ReadonlySet<string> = new Set([
  'CA', 'CO', 'CT', 'DE', 'IA', 'IN', 'KY', 'MD', 'MN', 'MT', 'NE', 'NH', 'NJ', 'OR', 'RI', 'TN', 'TX', 'UT', 'VA',
]);

/** US state names as the geolocation database spells them, to their postal codes. */
const usStateCodes: Readonly<Record<string, string>> = {
  Alabama: 'AL', Alaska: 'AK', Arizona: 'AZ', Arkansas: 'AR', California: 'CA', Colorado: 'CO', Connecticut: 'CT',
  Delaware: 'DE', 'District of Columbia': 'DC', Florida: 'FL', Georgia: 'GA', Hawaii: 'HI', Idaho: 'ID',
  Illinois: 'IL', Indiana: 'IN', Iowa: 'IA', Kansas: 'KS', Kentucky: 'KY', Louisiana: 'LA', Maine: 'ME',
  Maryland: 'MD', Massachusetts: 'MA', Michigan: 'MI', Minnesota: 'MN', Mississippi: 'MS', Missouri: 'MO',
  Montana: 'MT', Nebraska: 'NE', Nevada: 'NV', 'New Hampshire': 'NH', 'New Jersey': 'NJ', 'New Mexico': 'NM',
  'New York': 'NY', 'North Carolina': 'NC', 'North Dakota': 'ND', Ohio: 'OH', Oklahoma: 'OK', Oregon: 'OR',
  Pennsylvania: 'PA', 'Rhode Island': 'RI', 'South Carolina': 'SC', 'South Dakota': 'SD', Tennessee: 'TN',
  Texas: 'TX', Utah: 'UT', Vermont: 'VT', Virginia: 'VA', Washington: 'WA', 'West Virginia': 'WV',
  Wisconsin: 'WI', Wyoming: 'WY',
};

/**
 * The ISO 3166-2 subdivision code (after the dash) of a subdivision named or coded as a source gives
 * it; only US states are told apart, since only they get rules of their own.
 */
export function subdivisionCode(country: string | null, subdivision: string | null | undefined): string | null {
  if (country !== 'US' || !subdivision) return null;
  const value = subdivision.trim();
  const code = value.length === 2 ? value.toUpperCase() : usStateCodes[value];
  return code && usStates.has(code) ? code : null;
}
const usStates: ReadonlySet<string> = new Set(Object.values(usStateCodes));

/** What a website decides about rules: its own rule per region, and whether to ask for consent everywhere. */
export interface RegionRuleSettings {
  readonly regionRules: Readonly<Partial<Record<string, ConsentRule>>>;
  readonly forceOptIn: boolean;
}

/** The rule a region gets unless its website says otherwise: opt-out in the US opt-out states, else opt-in. */
export function defaultRuleFor(region: string | null): ConsentRule {
  const state = region?.startsWith('US-') ? region.slice(3) : null;
  return state && usOptOutStates.has(state) ? 'opt_out' : defaultRule;
}

/**
 * The rule for a visitor's region on a website: opt-in everywhere when the owner forces it; else the
 * owner's rule for the subdivision (`US-CA`), then for its country (`US`), then the default.
 */
export function ruleForRegion(region: string | null, settings: RegionRuleSettings): ConsentRule {
  if (settings.forceOptIn || region === null) return defaultRule;
  const country = region.split('-')[0] as string;
  return settings.regionRules[region] ?? (country !== region ? settings.regionRules[country] : undefined) ?? defaultRuleFor(region);
}
