// The banner's texts as the owner edits them: every text key the api knows (bannerTextKeys of
// @consentry/events/contracts, in its order), what each one is in the owner's terms, and our own
// wording per language, which the editor shows as the default. Our wording comes from the api
// (GET /api/banner-texts/{language}), one language at a time.
import type { BannerTextKey, BannerTexts } from '@consentry/events/contracts';
import { getJson } from '../../lib/api';
import type { ApiAnswer } from '../../lib/api-types';
import type { BannerLanguage } from '../../lib/banner-languages';

export { bannerTextKeys, type BannerTextKey, type BannerTexts } from '@consentry/events/contracts';

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

/** The api's document names no keys for `texts` (a record of strings): they are the contract's, every one. */
type ShippedTextsAnswer = Omit<ApiAnswer<'/api/banner-texts/{language}'>, 'texts'> & { texts: BannerTexts };

/** Our own wording in a language, as the banner shows it when the owner overrides nothing. */
export async function loadShippedTexts(language: BannerLanguage): Promise<BannerTexts> {
  return (await getJson<ShippedTextsAnswer>(`/api/banner-texts/${language}`)).texts;
}
