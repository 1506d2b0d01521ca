import { describe, expect, it } from 'vitest';
import { BannerShown, BannerShownData, EngagementRecordedData, PageHiddenData, PageViewedData } from './analytics';
import { exampleEventData } from './examples';
import { failuresOf, text } from './test-helpers';

describe('a banner impression', () => {
  const valid = exampleEventData.BannerShown;

  it('parses', () => {
    expect(BannerShown.schema.parse(valid)).toEqual(valid);
  });

  it('has exactly the anonymous fields: no visitor id, IP address, user agent or location', () => {
    expect(Object.keys(BannerShownData.shape).sort()).toEqual([
      'deviceClass',
      'position',
      'receivedAt',
      'theme',
      'websiteId',
    ]);
  });

  it.each([
    ['visitorId', 'a3c1e5f7-9b2d-4f6a-8c0e-1d3f5b7a9c2e'],
    ['ipAddress', '203.0.113.7'],
    ['userAgent', 'Mozilla/5.0'],
    ['country', 'DE'],
    ['email', 'someone@example.com'],
  ])('refuses personal data sent anyway (%s)', (field, value) => {
    expect(failuresOf(BannerShownData, { ...valid, [field]: value })).toEqual([
      { path: '', message: `Unrecognized key: "${field}"` },
    ]);
  });

  it.each([
    ['position', 'left', 'Invalid option: expected one of "bottom"|"top"'],
    ['theme', 'blue', 'Invalid option: expected one of "light"|"dark"'],
    ['deviceClass', 'phone', 'Invalid option: expected one of "mobile"|"tablet"|"desktop"|"bot"|"unknown"'],
    ['websiteId', '123', 'Invalid UUID'],
  ])('refuses %s = %j', (field, value, message) => {
    expect(failuresOf(BannerShownData, { ...valid, [field]: value })).toEqual([{ path: field, message }]);
  });
});

describe('a page view', () => {
  const valid = exampleEventData.PageViewed;

  it('parses, also without referrer, title or country', () => {
    expect(failuresOf(PageViewedData, valid)).toEqual([]);
    expect(failuresOf(PageViewedData, { ...valid, referrer: null, title: null, country: null })).toEqual([]);
  });

  it.each([
    ['pageviewId', 'pv-1', 'Invalid UUID'],
    ['visitorId', text(65), 'Too big: expected string to have <=64 characters'],
    ['url', text(2049), 'Too big: expected string to have <=2048 characters'],
    ['url', '', 'Too small: expected string to have >=1 characters'],
    ['path', text(2049), 'Too big: expected string to have <=2048 characters'],
    ['referrer', text(2049), 'Too big: expected string to have <=2048 characters'],
    ['title', text(257), 'Too big: expected string to have <=256 characters'],
    ['country', 'fr', 'Expected an ISO 3166-1 alpha-2 country code'],
    ['receivedAt', 'now', 'Invalid ISO datetime'],
  ])('refuses %s = %j', (field, value, message) => {
    expect(failuresOf(PageViewedData, { ...valid, [field]: value })).toEqual([{ path: field, message }]);
  });
});

describe('a page becoming hidden', () => {
  const valid = exampleEventData.PageHidden;

  it.each([0, 86_400_000])('parses visibleMs = %s', (visibleMs) => {
    expect(failuresOf(PageHiddenData, { ...valid, visibleMs })).toEqual([]);
  });

  it.each([
    [-1, 'Too small: expected number to be >=0'],
    [86_400_001, 'Too big: expected number to be <=86400000'],
    [1.5, 'Invalid input: expected int, received number'],
    ['100', 'Invalid input: expected number, received string'],
  ])('refuses visibleMs = %j', (visibleMs, message) => {
    expect(failuresOf(PageHiddenData, { ...valid, visibleMs })).toEqual([{ path: 'visibleMs', message }]);
  });
});

describe('an engagement', () => {
  const valid = exampleEventData.EngagementRecorded;

  it.each(['tap_to_call', 'contact_form_submit', 'location_map_view', 'opening_hours_view'])(
    'parses kind %s',
    (kind) => {
      expect(failuresOf(EngagementRecordedData, { ...valid, kind })).toEqual([]);
    },
  );

  it('refuses an unknown kind', () => {
    expect(failuresOf(EngagementRecordedData, { ...valid, kind: 'scroll' })).toEqual([
      {
        path: 'kind',
        message:
          'Invalid option: expected one of "tap_to_call"|"contact_form_submit"|"location_map_view"|"opening_hours_view"',
      },
    ]);
  });
});
