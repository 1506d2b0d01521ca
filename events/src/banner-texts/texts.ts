// What the banner and its preference centre say, as one flat record per language. The widget carries
// no texts of its own: the website's config brings one language's record (with the owner's overrides),
// and the consent event names the exact record shown by its hash, so a receipt can show the visitor's
// words. `{company}` and `{purpose}` are filled in by the widget.
import { z } from 'zod';

import { maxBannerTextLength, type BannerTexts } from '../contracts';

// The keys are in the browser-safe contracts entry, which the web app's editor lists too.
export { bannerTextKeys, type BannerTextKey, type BannerTexts } from '../contracts';

/** One text as an owner may override it: shown as plain text, never markup. */
export const bannerText = z
  .string()
  .min(1)
  .max(maxBannerTextLength)
  .refine((text) => text.trim().length > 0, { error: 'Must not be blank' });

/** English, the reference every translation follows (same keys, same placeholders). */
export const englishTexts: BannerTexts = {
  title: '{company} uses cookies',
  notice:
    'We use cookies and similar technologies only for the purposes you allow. You can change your choice at any time.',
  privacyPolicy: 'Privacy policy',
  acceptAll: 'Accept All',
  rejectAll: 'Reject All',
  customize: 'Customize',
  settings: 'Cookie settings',
  centreTitle: 'Privacy preferences',
  centreIntro: 'Choose what you allow. Necessary cookies keep the site working and are always on.',
  save: 'Save choices',
  close: 'Close',
  alwaysOn: 'Always on',
  services: 'Services and cookies',
  necessary: 'Necessary',
  necessaryDescription: 'Needed for the site to work, such as security and remembering this choice.',
  preferences: 'Preferences',
  preferencesDescription: 'Remember your settings, such as language or region, between visits.',
  analytics: 'Analytics',
  analyticsDescription: 'Count visits and see how the site is used, so it can be improved.',
  marketing: 'Marketing',
  marketingDescription: 'Show you relevant ads and measure how well they work, on this site and others.',
  identification: 'Identification',
  identificationDescription:
    'Let the site owner know who you are, using the contact details you enter or your company network, to contact you about their offers.',
  doNotSell: 'Do Not Sell or Share My Personal Information',
  optedOut: 'You have opted out of the sale and sharing of your personal information.',
  blocked: 'This content is blocked until you allow {purpose}.',
  enable: 'Allow {purpose}',
};
