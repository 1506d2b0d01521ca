import { describe, expect, it } from 'vitest';
import { exampleEventData } from './examples';
import { failingPathsOf, failuresOf, text } from './test-helpers';
import {
  embedCode,
  WebsiteActivationChangedData,
  WebsiteAdded,
  WebsiteAddedData,
  WebsiteRemovedData,
  getDomainHostname,
  websiteDomain,
  WebsiteSettingsChangedData,
} from './website';

describe('a website being added', () => {
  const valid = exampleEventData.WebsiteAdded;

  it('parses', () => {
    expect(WebsiteAdded.schema.parse(valid)).toEqual(valid);
  });

  it.each([
    ['name', '', 'Too small: expected string to have >=1 characters'],
    ['name', text(101), 'Too big: expected string to have <=100 characters'],
    ['name', '   ', 'Must not be blank'],
    ['ownerId', 'admin', 'Invalid UUID'],
    ['embedCode', text(7), 'Expected 8 to 64 URL-safe characters (A-Z, a-z, 0-9, _ and -)'],
    ['embedCode', text(65), 'Expected 8 to 64 URL-safe characters (A-Z, a-z, 0-9, _ and -)'],
    ['embedCode', 'abc/defgh', 'Expected 8 to 64 URL-safe characters (A-Z, a-z, 0-9, _ and -)'],
    ['addedAt', 'today', 'Invalid ISO datetime'],
  ])('refuses %s = %j', (field, value, message) => {
    expect(failuresOf(WebsiteAddedData, { ...valid, [field]: value })).toEqual([{ path: field, message }]);
  });
});

describe('a website domain', () => {
  it.each(['example.com', 'www.example.co.uk', 'xn--bcher-kva.example', 'localhost', 'a-b.c1.io', `${text(63)}.com`, 'shop.lan:8080', 'localhost:65535', 'test.local:1'])(
    'accepts %s',
    (domain) => {
      expect(failuresOf(websiteDomain, domain)).toEqual([]);
    },
  );

  it.each([
    'Example.com',
    'https://example.com',
    'example.com:',
    'example.com:0',
    'example.com:08080',
    'example.com:65536',
    'example.com:80:80',
    ':8080',
    'example.com/',
    '-example.com',
    'example-.com',
    'example..com',
    '.example.com',
    `${text(64)}.com`,
    '',
  ])('refuses %j', (domain) => {
    expect(failuresOf(websiteDomain, domain)).not.toEqual([]);
  });

  it('has a hostname without its explicit port', () => {
    expect(getDomainHostname('shop.lan:8080')).toBe('shop.lan');
    expect(getDomainHostname('example.com')).toBe('example.com');
  });

  it('refuses more than 253 characters', () => {
    const domain = Array.from({ length: 4 }, () => text(63)).join('.') + '.ab';
    expect(domain).toHaveLength(258);
    expect(failuresOf(websiteDomain, domain)).toContainEqual({
      path: '',
      message: 'Too big: expected string to have <=253 characters',
    });
  });
});

describe('an embed code', () => {
  it.each(['abcdEFGH', 'Xk3_pQ9-vT2mZ8aB', text(64)])('accepts %s', (code) => {
    expect(failuresOf(embedCode, code)).toEqual([]);
  });
});

describe('a website being removed or switched on and off', () => {
  it('parses', () => {
    expect(failuresOf(WebsiteRemovedData, exampleEventData.WebsiteRemoved)).toEqual([]);
    expect(failuresOf(WebsiteActivationChangedData, exampleEventData.WebsiteActivationChanged)).toEqual([]);
  });

  it('refuses a non-boolean activation', () => {
    expect(
      failingPathsOf(WebsiteActivationChangedData, { ...exampleEventData.WebsiteActivationChanged, isActive: 'yes' }),
    ).toEqual(['isActive']);
  });
});

describe('when website settings change', () => {
  const base = { websiteId: exampleEventData.WebsiteAdded.websiteId, changedAt: '2024-05-02T09:00:00.000Z' };

  it('parses any single setting', () => {
    for (const setting of [
      { retentionMonths: 1 },
      { retentionMonths: 120 },
      { ipAddressMode: 'truncated' },
      { bannerPosition: 'top' },
      { bannerTheme: 'dark' },
      { policyVersion: '2024-05' },
      { privacyPolicyUrl: null },
      { privacyPolicyUrl: 'https://example.com/privacy' },
      { monthlyResolutionCap: 500 },
      { monthlyResolutionCap: null },
      { keepPageQueryStrings: true },
    ]) {
      expect(failuresOf(WebsiteSettingsChangedData, { ...base, ...setting })).toEqual([]);
    }
  });

  it('refuses an event that changes nothing', () => {
    expect(failuresOf(WebsiteSettingsChangedData, base)).toEqual([
      {
        path: '',
        message:
          'Expected at least one changed setting (retentionMonths, ipAddressMode, bannerPosition, bannerTheme, policyVersion, privacyPolicyUrl, purposes, services, consentLifetimeMonths, defaultLanguage, textOverrides, regionRules, forceOptIn, scanIntervalDays, identificationForms, monthlyResolutionCap, keepPageQueryStrings)',
      },
    ]);
    expect(failingPathsOf(WebsiteSettingsChangedData, { ...base, bannerTheme: undefined })).toEqual(['']);
  });

  it.each([
    ['retentionMonths', 0, 'Too small: expected number to be >=1'],
    ['monthlyResolutionCap', 0, 'Too small: expected number to be >=1'],
    ['monthlyResolutionCap', 2.5, 'Invalid input: expected int, received number'],
    ['retentionMonths', 121, 'Too big: expected number to be <=120'],
    ['retentionMonths', 24.5, 'Invalid input: expected int, received number'],
    ['ipAddressMode', 'none', 'Invalid option: expected one of "full"|"truncated"'],
    ['bannerPosition', 'left', 'Invalid option: expected one of "bottom"|"top"'],
    ['bannerTheme', 'blue', 'Invalid option: expected one of "light"|"dark"'],
    ['policyVersion', text(65), 'Too big: expected string to have <=64 characters'],
    ['privacyPolicyUrl', 'javascript:alert(1)', 'Expected an http or https URL'],
    ['privacyPolicyUrl', `https://example.com/${text(2029)}`, 'Too big: expected string to have <=2048 characters'],
  ])('refuses %s = %j', (field, value, message) => {
    expect(failuresOf(WebsiteSettingsChangedData, { ...base, [field]: value })).toEqual([{ path: field, message }]);
  });
});

describe('when a website changes its purposes', () => {
  const base = { websiteId: exampleEventData.WebsiteAdded.websiteId, changedAt: '2024-05-01T10:00:00.000Z' };

  it('takes the purposes, the services under them and a consent lifetime', () => {
    const change = {
      ...base,
      purposes: ['analytics', 'marketing', 'identification'],
      services: [{ purpose: 'analytics', name: 'Matomo', description: 'Visit statistics', cookies: ['_pk_id', '_pk_ses'] }],
      consentLifetimeMonths: 6,
    };
    expect(failuresOf(WebsiteSettingsChangedData, change)).toEqual([]);
  });

  it.each([
    [{ purposes: [] }, 'purposes', 'Expected at least one purpose to ask for'],
    [{ purposes: ['necessary'] }, 'purposes.[0]', undefined],
    [{ consentLifetimeMonths: 25 }, 'consentLifetimeMonths', 'Too big: expected number to be <=24'],
    [{ consentLifetimeMonths: 0 }, 'consentLifetimeMonths', 'Too small: expected number to be >=1'],
    [{ services: [{ purpose: 'analytics', name: ' ', description: '', cookies: [] }] }, 'services.[0].name', 'Must not be blank'],
  ])('refuses %j', (change, path, message) => {
    const failures = failuresOf(WebsiteSettingsChangedData, { ...base, ...change });
    expect(failures.map((failure) => failure.path)).toEqual([path]);
    if (message) expect(failures[0]?.message).toBe(message);
  });
});
