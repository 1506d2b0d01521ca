import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BannerTextsPublishedData, bannerTextsEventId } from '../banner';
import {
  bannerLanguages,
  bannerTextKeys,
  bannerTextOverrides,
  bannerTextsFor,
  canonicalBannerTexts,
  englishTexts,
  resolveBannerLanguage,
  shippedTexts,
  textDirection,
} from './index';

const placeholders = (text: string): string[] => (text.match(/\{\w+\}/g) ?? []).sort();

describe('the shipped languages', () => {
  it('are the 24 official EU languages and Arabic', () => {
    expect(bannerLanguages).toHaveLength(25);
    expect(Object.keys(shippedTexts).sort()).toEqual([...bannerLanguages].sort());
  });

  for (const language of bannerLanguages) {
    describe(language, () => {
      const texts = shippedTexts[language];
      it('has every text, none blank, none over the owner limit, and no other keys', () => {
        expect(Object.keys(texts)).toEqual([...bannerTextKeys]);
        for (const key of bannerTextKeys) {
          expect(texts[key].trim(), key).not.toBe('');
          expect(texts[key].length, key).toBeLessThanOrEqual(600);
        }
      });

      it('keeps the placeholders of the English texts, no more and no fewer', () => {
        for (const key of bannerTextKeys) expect(placeholders(texts[key]), key).toEqual(placeholders(englishTexts[key]));
      });

      if (language !== 'en') {
        it('is a translation: most texts differ from the English', () => {
          const same = bannerTextKeys.filter((key) => texts[key] === englishTexts[key]);
          expect(same.length, same.join()).toBeLessThanOrEqual(3);
        });
      }
    });
  }

  it('writes Arabic right to left and the others left to right', () => {
    expect(textDirection('ar')).toBe('rtl');
    expect(bannerLanguages.filter((l) => textDirection(l) === 'rtl')).toEqual(['ar']);
  });
});

describe('resolveBannerLanguage', () => {
  it("gives the asked language when shipped, else the website's default", () => {
    expect(resolveBannerLanguage('de', 'en')).toBe('de');
    expect(resolveBannerLanguage('DE', 'en')).toBe('de');
    expect(resolveBannerLanguage('ja', 'fr')).toBe('fr');
    expect(resolveBannerLanguage(undefined, 'sv')).toBe('sv');
    expect(resolveBannerLanguage('', 'sv')).toBe('sv');
  });
});

describe("an owner's overrides", () => {
  it('replace only the texts they name, in their language', () => {
    const overrides = bannerTextOverrides.parse({ de: { title: 'Cookies bei {company}' } });
    expect(bannerTextsFor('de', overrides)).toEqual({ ...shippedTexts.de, title: 'Cookies bei {company}' });
    expect(bannerTextsFor('fr', overrides)).toEqual(shippedTexts.fr);
  });

  it('are refused for unknown languages or texts, and when blank', () => {
    expect(bannerTextOverrides.safeParse({ xx: { title: 'x' } }).success).toBe(false);
    expect(bannerTextOverrides.safeParse({ de: { headline: 'x' } }).success).toBe(false);
    expect(bannerTextOverrides.safeParse({ de: { title: '   ' } }).success).toBe(false);
    expect(bannerTextOverrides.safeParse({ de: { title: 'x'.repeat(601) } }).success).toBe(false);
  });
});

describe('canonicalBannerTexts', () => {
  it('is the same string whatever the key order, and differs with any text, the language or the company', () => {
    const reversed = Object.fromEntries(Object.entries(englishTexts).reverse()) as typeof englishTexts;
    const base = canonicalBannerTexts('en', englishTexts, 'Acme');
    expect(canonicalBannerTexts('en', reversed, 'Acme')).toBe(base);
    expect(canonicalBannerTexts('en', { ...englishTexts, title: 'x' }, 'Acme')).not.toBe(base);
    expect(canonicalBannerTexts('de', englishTexts, 'Acme')).not.toBe(base);
    expect(canonicalBannerTexts('en', englishTexts, 'Acme Ltd')).not.toBe(base);
  });
});

describe('BannerTextsPublished', () => {
  it('takes every shipped language as published texts, and refuses a set with a text missing', () => {
    for (const language of bannerLanguages) {
      const data = { textsHash: 'a'.repeat(64), language, companyName: 'Acme', texts: shippedTexts[language], publishedAt: '2026-01-01T00:00:00.000Z' };
      expect(BannerTextsPublishedData.safeParse(data).success, language).toBe(true);
    }
    const { title: _title, ...missing } = englishTexts;
    const data = { textsHash: 'a'.repeat(64), language: 'en', companyName: 'Acme', texts: missing, publishedAt: '2026-01-01T00:00:00.000Z' };
    expect(BannerTextsPublishedData.safeParse(data).success).toBe(false);
  });

  it('has an event id derived from the hash: a valid UUID, the same for the same texts', () => {
    const hash = createHash('sha256').update('x').digest('hex');
    expect(bannerTextsEventId(hash)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(bannerTextsEventId(hash)).toBe(bannerTextsEventId(hash));
    expect(bannerTextsEventId(createHash('sha256').update('y').digest('hex'))).not.toBe(bannerTextsEventId(hash));
  });
});
