// The banner's texts in every language we ship (the 24 official EU languages, plus Arabic to keep
// right-to-left layout working), the owner's overrides of them, and the hash that names exactly what a
// visitor was shown. The server sends one language per config; the widget bundles none.
import { z } from 'zod';
import { texts as ar } from './languages/ar';
import { texts as bg } from './languages/bg';
import { texts as cs } from './languages/cs';
import { texts as da } from './languages/da';
import { texts as de } from './languages/de';
import { texts as el } from './languages/el';
import { texts as es } from './languages/es';
import { texts as et } from './languages/et';
import { texts as fi } from './languages/fi';
import { texts as fr } from './languages/fr';
import { texts as ga } from './languages/ga';
import { texts as hr } from './languages/hr';
import { texts as hu } from './languages/hu';
import { texts as it } from './languages/it';
import { texts as lt } from './languages/lt';
import { texts as lv } from './languages/lv';
import { texts as mt } from './languages/mt';
import { texts as nl } from './languages/nl';
import { texts as pl } from './languages/pl';
import { texts as pt } from './languages/pt';
import { texts as ro } from './languages/ro';
import { texts as sk } from './languages/sk';
import { texts as sl } from './languages/sl';
import { texts as sv } from './languages/sv';
import { bannerLanguages } from '../contracts';
import { bannerText, bannerTextKeys, englishTexts, type BannerTextKey, type BannerTexts } from './texts';

export * from './texts';
// The languages, the default and the direction are in the browser-safe contracts entry.
export { bannerLanguages, defaultBannerLanguage, textDirection } from '../contracts';
export const bannerLanguage = z.enum(bannerLanguages, {
  error: `Expected one of the banner's languages: ${bannerLanguages.join(', ')}`,
});
export type BannerLanguage = z.infer<typeof bannerLanguage>;

/** The texts we ship, per language. */
export const shippedTexts: Readonly<Record<BannerLanguage, BannerTexts>> = {
  bg, cs, da, de, el, en: englishTexts, es, et, fi, fr, ga, hr, hu,
  it, lt, lv, mt, nl, pl, pt, ro, sk, sl, sv, ar,
};

/** An owner's own wording, per language and text; what is not overridden stays ours. */
export const bannerTextOverrides = z.partialRecord(bannerLanguage, z.partialRecord(z.enum(bannerTextKeys), bannerText));
export type BannerTextOverrides = z.infer<typeof bannerTextOverrides>;

/** The language a visitor gets: the one asked for when we have it, else the website's default. */
export function resolveBannerLanguage(asked: string | undefined, websiteDefault: BannerLanguage): BannerLanguage {
  const parsed = bannerLanguage.safeParse(asked?.toLowerCase());
  return parsed.success ? parsed.data : websiteDefault;
}

/** The texts of `language` with the owner's overrides applied. */
export function bannerTextsFor(language: BannerLanguage, overrides: BannerTextOverrides = {}): BannerTexts {
  return { ...shippedTexts[language], ...overrides[language] };
}

/**
 * A language's texts, and the company name `{company}` stands for, as one canonical JSON string
 * (language and company first, then the keys in their fixed order): its SHA-256 is the `textsHash` a
 * consent event names, so the receipt can show the visitor exactly what they read.
 */
export function canonicalBannerTexts(language: BannerLanguage, texts: BannerTexts, companyName: string): string {
  const canonical: Record<string, string> = { language, company: companyName };
  for (const key of bannerTextKeys) canonical[key] = texts[key as BannerTextKey];
  return JSON.stringify(canonical);
}
