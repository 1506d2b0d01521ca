import { describe, expect, it } from 'vitest';
import { examplePngDataUrl } from './examples';
import {
  defaultSiteContent,
  maxHeroBackgroundBytes,
  SiteContent,
  SiteContentChanged,
  SiteContentChangedData,
} from './site-content';
import { failingPathsOf, failuresOf, imageDataUrlOfBytes, text } from './test-helpers';

const specFields = [
  'heroTitle',
  'heroSubtitle',
  'heroButtonText',
  'aboutTitle',
  'aboutText',
  'featuresTitle',
  'feature1Title',
  'feature1Text',
  'feature2Title',
  'feature2Text',
  'feature3Title',
  'feature3Text',
  'ctaTitle',
  'ctaText',
  'ctaButtonText',
  'footerText',
  'heroBackgroundImage',
];

describe('the default site content', () => {
  it('has every field of the spec and nothing else', () => {
    expect(Object.keys(SiteContent.shape).sort()).toEqual([...specFields].sort());
    expect(Object.keys(defaultSiteContent).sort()).toEqual([...specFields].sort());
  });

  it('is valid content', () => {
    expect(failuresOf(SiteContent, defaultSiteContent)).toEqual([]);
  });

  it('fills every text and tells the spec story: three steps, setup in 5 minutes, GDPR and CCPA', () => {
    for (const [field, value] of Object.entries(defaultSiteContent)) {
      if (field !== 'heroBackgroundImage') expect(value, field).toMatch(/\S/);
    }
    const allText = Object.values(defaultSiteContent).join(' ');
    expect(allText).toContain('5 minutes');
    expect(allText).toContain('GDPR');
    expect(allText).toContain('CCPA');
    expect(defaultSiteContent.featuresTitle).toMatch(/three steps/i);
    expect(defaultSiteContent.heroBackgroundImage).toBeNull();
  });

  it('cannot be changed by a caller', () => {
    expect(Object.isFrozen(defaultSiteContent)).toBe(true);
  });
});

describe('site content being changed', () => {
  const valid = { ...defaultSiteContent, changedBy: 'admin', changedAt: '2024-05-06T08:00:00.000Z' };

  it('parses with and without a hero background', () => {
    expect(SiteContentChanged.schema.parse(valid)).toEqual(valid);
    expect(failuresOf(SiteContentChangedData, { ...valid, heroBackgroundImage: examplePngDataUrl })).toEqual([]);
  });

  it('parses a hero background of exactly 5 MB', () => {
    expect(maxHeroBackgroundBytes).toBe(5 * 1024 * 1024);
    expect(
      failuresOf(SiteContentChangedData, {
        ...valid,
        heroBackgroundImage: imageDataUrlOfBytes(maxHeroBackgroundBytes, 'jpeg'),
      }),
    ).toEqual([]);
  });

  it.each([
    ['heroTitle', 'empty', '', 'Too small: expected string to have >=1 characters'],
    ['heroTitle', '121 characters', text(121), 'Too big: expected string to have <=120 characters'],
    ['heroSubtitle', '501 characters', text(501), 'Too big: expected string to have <=500 characters'],
    ['heroButtonText', '41 characters', text(41), 'Too big: expected string to have <=40 characters'],
    ['aboutText', '2001 characters', text(2001), 'Too big: expected string to have <=2000 characters'],
    ['feature2Title', '81 characters', text(81), 'Too big: expected string to have <=80 characters'],
    ['feature3Text', '501 characters', text(501), 'Too big: expected string to have <=500 characters'],
    ['ctaButtonText', 'blank', '  ', 'Must not be blank'],
    ['footerText', '501 characters', text(501), 'Too big: expected string to have <=500 characters'],
    [
      'heroBackgroundImage',
      'a PNG of 5 MB + 1 byte',
      imageDataUrlOfBytes(maxHeroBackgroundBytes + 1),
      'Image must be at most 5 MB',
    ],
    [
      'heroBackgroundImage',
      'a PDF data URL',
      'data:application/pdf;base64,AAAA',
      'Expected a base64 image data URL (data:image/{png|jpeg|gif|webp|svg+xml};base64,...)',
    ],
    ['changedBy', 'empty', '', 'Too small: expected string to have >=1 characters'],
  ])('refuses %s = %s', (field, _label, value, message) => {
    expect(failuresOf(SiteContentChangedData, { ...valid, [field]: value })).toEqual([{ path: field, message }]);
  });

  it('refuses content with a field missing, because the editor always saves all of them', () => {
    const { aboutText: _aboutText, ...withoutAboutText } = valid;
    expect(failingPathsOf(SiteContentChangedData, withoutAboutText)).toEqual(['aboutText']);
  });
});
