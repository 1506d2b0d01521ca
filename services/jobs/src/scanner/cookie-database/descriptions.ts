// Consentry's own one-sentence descriptions of what a cookie or storage key of each kind is for,
// shown in the scan report, the preference centre and the cookie declaration. They are written
// here on purpose: the Open Cookie Database's Description column is its authors' prose, which we
// do not ship (see NOTICE).
import type { CookieClassification, CookiePurpose } from './classify';
import type { DatabaseCategory } from './database';

export const purposeDescriptions: Record<CookiePurpose | 'unclassified', string> = {
  necessary: 'Needed for the website to work, such as keeping you signed in, securing forms or remembering your consent choice.',
  preferences: 'Remembers the choices you make on the website, such as language, layout or region, to tailor it to you.',
  analytics: 'Measures how visitors use the website, such as pages viewed and time spent, so it can be improved.',
  marketing: 'Used by advertising and social media services to follow your visits across websites and show you relevant ads.',
  unclassified: 'Not yet classified: the website owner has not assigned a purpose to this item.',
};

export const categoryDescriptions: Record<DatabaseCategory, string> = {
  Functional: 'Supports a basic feature of the website, such as a session, a shopping cart, load balancing or a consent choice.',
  Security: 'Protects the website and its visitors, for example against forged requests, bots or abuse.',
  Necessary: 'Needed for the website to work, for example to keep a session or to record a consent choice.',
  Personalization: 'Remembers settings you chose so the website looks and behaves the way you left it.',
  Analytics: 'Collects statistics on how visitors find and use the website.',
  Marketing: 'Lets advertising or social media services recognise your browser across websites to measure and target ads.',
};

/** The sentence for a classified item (by its database category), or the unclassified one. */
export function describeClassification(classification: CookieClassification | null): string {
  return classification == null ? purposeDescriptions.unclassified : categoryDescriptions[classification.category];
}
