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
