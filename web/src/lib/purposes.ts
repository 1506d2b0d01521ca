// The purposes a visitor can allow on a website's banner and how a choice was made, as the api names
// them (@consentry/events/contracts: the purposes in the order the api and the banner use, and the
// methods) and as the app shows them. Settings, the consent records and the purpose statistics all
// use these, so the names and their order are decided once.
import { optionalPurposes, type ConsentMethod, type OptionalPurpose } from '@consentry/events/contracts';

export { optionalPurposes, type ConsentMethod, type OptionalPurpose } from '@consentry/events/contracts';

export const purposeLabels: Record<OptionalPurpose, string> = {
  preferences: 'Preferences',
  analytics: 'Analytics',
  marketing: 'Marketing',
  identification: 'Identification',
};

/** What each purpose allows, in the owner's terms (the banner explains them to visitors in its own words). */
export const purposeDescriptions: Record<OptionalPurpose, string> = {
  preferences: "Remember visitors' settings, such as language or region, between visits.",
  analytics: 'Count visits and see how the site is used.',
  marketing: 'Show relevant ads and measure how well they work, on this site and others.',
  identification: 'Identify visitors as business contacts from the details they enter or their company network.',
};

export const consentMethodLabels: Record<ConsentMethod, string> = {
  accept_all: 'Accept All',
  reject_all: 'Reject All',
  custom: 'Customized',
  gpc: 'GPC',
  jurisdiction_default: 'Regional default',
};

/** Each known purpose once, in the canonical order (the api refuses any other order). */
export function sortPurposes(purposes: Iterable<string>): OptionalPurpose[] {
  const given = new Set(purposes);
  return optionalPurposes.filter((purpose) => given.has(purpose));
}

/** `Preferences, Analytics`: the purposes' names in the canonical order; unknown names are left out. */
export function formatPurposeList(purposes: Iterable<string>): string {
  return sortPurposes(purposes)
    .map((purpose) => purposeLabels[purpose])
    .join(', ');
}
