// The banner's texts as the owner edits them: every text key the api knows (events/src/banner-texts/
// texts.ts `bannerTextKeys`, in its order; a unit test keeps the two the same), what each one is in
// the owner's terms, and our own wording per language, which the editor shows as the default. Our
// wording comes from the api (GET /api/banner-texts/{language}), one language at a time.
import { getJson } from '../../lib/api';
import type { BannerLanguage } from '../../lib/banner-languages';

export const bannerTextKeys = [
  'title',
  'notice',
  'privacyPolicy',
  'acceptAll',
  'rejectAll',
  'customize',
  'settings',
  'centreTitle',
  'centreIntro',
  'save',
  'close',
  'alwaysOn',
  'services',
  'necessary',
  'necessaryDescription',
  'preferences',
  'preferencesDescription',
  'analytics',
  'analyticsDescription',
  'marketing',
  'marketingDescription',
  'identification',
  'identificationDescription',
  'doNotSell',
  'optedOut',
  'blocked',
  'enable',
] as const;
export type BannerTextKey = (typeof bannerTextKeys)[number];
export type BannerTexts = Readonly<Record<BannerTextKey, string>>;

/** The owner's own wording: per language, per text; what is not named stays ours. */
export type TextOverrides = Partial<Record<BannerLanguage, Partial<Record<BannerTextKey, string>>>>;

/** Where each text shows, as the editor labels it. */
export const bannerTextLabels: Record<BannerTextKey, string> = {
  title: 'Banner title',
  notice: 'Banner notice',
  privacyPolicy: 'Privacy policy link',
  acceptAll: 'Accept All button',
  rejectAll: 'Reject All button',
  customize: 'Customize button',
  settings: 'Cookie settings button',
  centreTitle: 'Preference centre title',
  centreIntro: 'Preference centre introduction',
  save: 'Save choices button',
  close: 'Close button',
  alwaysOn: 'Always on label',
  services: 'Services and cookies heading',
  necessary: 'Necessary: name',
  necessaryDescription: 'Necessary: description',
  preferences: 'Preferences: name',
  preferencesDescription: 'Preferences: description',
  analytics: 'Analytics: name',
  analyticsDescription: 'Analytics: description',
  marketing: 'Marketing: name',
  marketingDescription: 'Marketing: description',
  identification: 'Identification: name',
  identificationDescription: 'Identification: description',
  doNotSell: 'Do Not Sell or Share link',
  optedOut: 'Opted-out confirmation',
  blocked: 'Blocked content notice',
  enable: 'Blocked content button',
};

/** Texts long enough to edit on several lines. */
export const longBannerTextKeys: ReadonlySet<BannerTextKey> = new Set([
  'notice',
  'centreIntro',
  'necessaryDescription',
  'preferencesDescription',
  'analyticsDescription',
  'marketingDescription',
  'identificationDescription',
  'optedOut',
  'blocked',
]);

/** The placeholders the widget fills in: the company's name and a purpose's name. */
export const bannerTextPlaceholders = ['{company}', '{purpose}'] as const;

/** Our own wording in a language, as the banner shows it when the owner overrides nothing. */
export async function loadShippedTexts(language: BannerLanguage): Promise<BannerTexts> {
  return (await getJson<{ texts: BannerTexts }>(`/api/banner-texts/${language}`)).texts;
}
