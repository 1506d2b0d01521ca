// The languages the banner speaks, as the api names them (@consentry/events/contracts: the 24
// official EU languages and Arabic, the default and each one's direction) and as the app shows them:
// the English name with the language's own, "German (Deutsch)". Website settings and the
// Installation preview both choose from these.
import { bannerLanguages, type BannerLanguage } from '@consentry/events/contracts';

export { bannerLanguages, defaultBannerLanguage, textDirection, type BannerLanguage } from '@consentry/events/contracts';

const names: Record<BannerLanguage, { english: string; own: string }> = {
  bg: { english: 'Bulgarian', own: 'Български' },
  cs: { english: 'Czech', own: 'Čeština' },
  da: { english: 'Danish', own: 'Dansk' },
  de: { english: 'German', own: 'Deutsch' },
  el: { english: 'Greek', own: 'Ελληνικά' },
  en: { english: 'English', own: 'English' },
  es: { english: 'Spanish', own: 'Español' },
  et: { english: 'Estonian', own: 'Eesti' },
  fi: { english: 'Finnish', own: 'Suomi' },
  fr: { english: 'French', own: 'Français' },
  ga: { english: 'Irish', own: 'Gaeilge' },
  hr: { english: 'Croatian', own: 'Hrvatski' },
  hu: { english: 'Hungarian', own: 'Magyar' },
  it: { english: 'Italian', own: 'Italiano' },
  lt: { english: 'Lithuanian', own: 'Lietuvių' },
  lv: { english: 'Latvian', own: 'Latviešu' },
  mt: { english: 'Maltese', own: 'Malti' },
  nl: { english: 'Dutch', own: 'Nederlands' },
  pl: { english: 'Polish', own: 'Polski' },
  pt: { english: 'Portuguese', own: 'Português' },
  ro: { english: 'Romanian', own: 'Română' },
  sk: { english: 'Slovak', own: 'Slovenčina' },
  sl: { english: 'Slovenian', own: 'Slovenščina' },
  sv: { english: 'Swedish', own: 'Svenska' },
  ar: { english: 'Arabic', own: 'العربية' },
};

/** `German (Deutsch)`; English is just `English`. */
export function formatLanguageName(language: BannerLanguage): string {
  const { english, own } = names[language];
  return english === own ? english : `${english} (${own})`;
}

/** The English name alone, for running text ("Your own wording in German"). */
export function getEnglishLanguageName(language: BannerLanguage): string {
  return names[language].english;
}

/** The languages in the order a select lists them: by English name. */
export const bannerLanguagesByName: readonly BannerLanguage[] = [...bannerLanguages].sort((a, b) =>
  names[a].english.localeCompare(names[b].english, 'en'),
);

export function isBannerLanguage(value: unknown): value is BannerLanguage {
  return typeof value === 'string' && (bannerLanguages as readonly string[]).includes(value);
}
