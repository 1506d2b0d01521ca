// The banner's languages as the app names them: the api's list (@consentry/events/contracts), each
// shown in English with its own name and listed by English name.
import { describe, expect, it } from 'vitest';
import { bannerLanguages, bannerLanguagesByName, formatLanguageName, isBannerLanguage } from './banner-languages';

describe('the banner languages', () => {
  it('are named in English with their own name, English just once', () => {
    expect(formatLanguageName('de')).toBe('German (Deutsch)');
    expect(formatLanguageName('ar')).toBe('Arabic (العربية)');
    expect(formatLanguageName('ga')).toBe('Irish (Gaeilge)');
    expect(formatLanguageName('en')).toBe('English');
  });

  it('are listed by English name, each once', () => {
    expect(bannerLanguagesByName.slice(0, 4).map(formatLanguageName)).toEqual(['Arabic (العربية)', 'Bulgarian (Български)', 'Croatian (Hrvatski)', 'Czech (Čeština)']);
    expect([...bannerLanguagesByName].sort()).toEqual([...bannerLanguages].sort());
  });

  it('tells a language code from anything else', () => {
    expect(isBannerLanguage('sv')).toBe(true);
    expect(isBannerLanguage('SV')).toBe(false);
    expect(isBannerLanguage('ja')).toBe(false);
    expect(isBannerLanguage(undefined)).toBe(false);
  });
});
