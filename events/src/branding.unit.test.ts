import { describe, expect, it } from 'vitest';
import { BrandingChanged, BrandingChangedData, BrandingSettings, defaultBranding, maxLogoBytes } from './branding';
import { exampleEventData } from './examples';
import { failuresOf, imageDataUrlOfBytes, text } from './test-helpers';

describe('branding being changed', () => {
  const valid = exampleEventData.BrandingChanged;

  it('parses with a logo and without one', () => {
    expect(BrandingChanged.schema.parse(valid)).toEqual(valid);
    expect(failuresOf(BrandingChangedData, { ...valid, logoUrl: null })).toEqual([]);
  });

  it('starts from the spec defaults, which are themselves valid', () => {
    expect(defaultBranding).toEqual({ companyName: 'Consentry', primaryColor: '#2563eb', logoUrl: null });
    expect(failuresOf(BrandingSettings, defaultBranding)).toEqual([]);
  });

  it('parses a logo of exactly 2 MB', () => {
    expect(maxLogoBytes).toBe(2 * 1024 * 1024);
    expect(failuresOf(BrandingChangedData, { ...valid, logoUrl: imageDataUrlOfBytes(maxLogoBytes) })).toEqual([]);
  });

  it.each([
    ['companyName', 'empty', '', 'Too small: expected string to have >=1 characters'],
    ['companyName', '101 characters', text(101), 'Too big: expected string to have <=100 characters'],
    ['primaryColor', 'blue', 'blue', 'Expected a colour as #rrggbb'],
    ['primaryColor', '#25e', '#25e', 'Expected a colour as #rrggbb'],
    ['primaryColor', '#2563ebff', '#2563ebff', 'Expected a colour as #rrggbb'],
    ['logoUrl', 'a PNG of 2 MB + 1 byte', imageDataUrlOfBytes(maxLogoBytes + 1), 'Image must be at most 2 MB'],
    ['logoUrl', 'a PNG of 3 MB', imageDataUrlOfBytes(3 * 1024 * 1024), 'Image must be at most 2 MB'],
    [
      'logoUrl',
      'an HTML data URL',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'Expected a base64 image data URL (data:image/{png|jpeg|gif|webp|svg+xml};base64,...)',
    ],
    [
      'logoUrl',
      'an https URL',
      'https://cdn.example.com/logo.png',
      'Expected a base64 image data URL (data:image/{png|jpeg|gif|webp|svg+xml};base64,...)',
    ],
    ['changedBy', '101 characters', text(101), 'Too big: expected string to have <=100 characters'],
  ])('refuses %s = %s', (field, _label, value, message) => {
    expect(failuresOf(BrandingChangedData, { ...valid, [field]: value })).toEqual([{ path: field, message }]);
  });

  it('refuses a field the catalogue does not know', () => {
    expect(failuresOf(BrandingChangedData, { ...valid, logoFile: 'x' })).toEqual([
      { path: '', message: 'Unrecognized key: "logoFile"' },
    ]);
  });
});
