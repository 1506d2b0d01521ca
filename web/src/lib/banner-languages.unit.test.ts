// The banner's languages as the app names them: the api's list (events/), each shown in English with
// its own name, listed by English name, and written in the api's direction.
import { describe, expect, it } from 'vitest';
import { bannerLanguages as apiLanguages, textDirection } from '@consentry/events';
import { bannerLanguages, bannerLanguagesByName, formatLanguageName, getTextDirection, isBannerLanguage } from './banner-languages';

describe('the banner languages', () => {
  it('are the api’s, in its order', () => {
    expect(bannerLanguages).toEqual(apiLanguages);
  });

  it('are written in the direction the widget config says', () => {
    for (const language of bannerLanguages) expect(getTextDirection(language)).toBe(textDirection(language));
    expect(getTextDirection('ar')).toBe('rtl');
  });

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
