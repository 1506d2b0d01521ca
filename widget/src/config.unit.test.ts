import { describe, expect, it } from 'vitest';
import { LANGUAGES, parseConfig, pickLanguage, safeUrl } from './config';

const TEXTS = { title: '{company} uses cookies', acceptAll: 'Accept All' };
const RAW = {
  websiteId: '6f1d0c2e-8a4b-4c3d-9e5f-1a2b3c4d5e6f',
  companyName: 'Acme',
  logoUrl: 'data:image/png;base64,iVBORw0KGgo=',
  primaryColor: '#2563EB',
  privacyPolicyUrl: 'https://example.com/privacy',
  policyVersion: '1',
  position: 'bottom',
  theme: 'light',
  purposes: ['marketing', 'analytics'],
  services: [{ purpose: 'analytics', name: 'Plausible', description: 'Counts', cookies: ['a', 7, ''] }],
  consentLifetimeMonths: 6,
  domain: 'Example.com',
  language: 'de',
  dir: 'ltr',
  texts: TEXTS,
  textsHash: 'c'.repeat(64),
  regional: true,
};

describe('parseConfig', () => {
  it('takes the documented answer, purposes in canonical order', () => {
    expect(parseConfig(RAW)).toEqual({
      companyName: 'Acme',
      logoUrl: 'data:image/png;base64,iVBORw0KGgo=',
      primaryColor: '#2563eb',
      privacyPolicyUrl: 'https://example.com/privacy',
      policyVersion: '1',
      purposes: ['analytics', 'marketing'],
      services: [{ purpose: 'analytics', name: 'Plausible', description: 'Counts', cookies: ['a'] }],
      consentLifetimeMonths: 6,
      domain: 'example.com',
      texts: TEXTS,
      language: 'de',
      dir: 'ltr',
      textsHash: 'c'.repeat(64),
      regional: true,
      identification: null,
    });
  });

  it('fills the documented nulls and defaults', () => {
    const parsed = parseConfig({ ...RAW, logoUrl: null, primaryColor: null, privacyPolicyUrl: null, consentLifetimeMonths: 99, domain: '', dir: 'sideways', textsHash: 'x', regional: 'yes' });
    expect(parsed).toMatchObject({ logoUrl: null, primaryColor: '#2563eb', privacyPolicyUrl: null, consentLifetimeMonths: 12, domain: 'shop.example.com', dir: 'ltr', textsHash: null, regional: false });
  });

  it('drops services under unknown purposes or without a name', () => {
    const parsed = parseConfig({ ...RAW, services: [{ purpose: 'necessary', name: 'x' }, { purpose: 'analytics', name: '' }, 'junk'] });
    expect(parsed?.services).toEqual([]);
  });

  it('takes lead identification when offered: a script on {host} only, and the forms mode as said', () => {
    const identification = { forms: 'marked', script: '/identify.js' };
    expect(parseConfig({ ...RAW, identification })?.identification).toEqual(identification);
    // Whatever the answer says, the widget loads `{host}` + script, which must not leave {host}.
    const host = 'https://consent.example.net/prefix';
    for (const script of ['https://evil.example/identify.js', '.evil.example/x.js', '@evil.example/x.js', 'identify.js', '', null, 7]) {
      expect(parseConfig({ ...RAW, identification: { forms: 'all', script } })?.identification).toBeNull();
    }
    for (const script of ['//evil.example/x.js', '/\\evil.example/x.js', '/@evil.example', '/identify.js?v=2']) {
      const parsed = parseConfig({ ...RAW, identification: { forms: 'all', script } })?.identification;
      expect(new URL(host + String(parsed?.script)).host).toBe('consent.example.net');
    }
    expect(parseConfig({ ...RAW, identification: 'yes' })?.identification).toBeNull();
  });

  it('is unusable without a policy version, purposes or texts', () => {
    for (const raw of [null, 'x', [], {}, { ...RAW, policyVersion: '' }, { ...RAW, policyVersion: 3 }, { ...RAW, purposes: [] }, { ...RAW, purposes: ['necessary'] }, { ...RAW, texts: {} }]) {
      expect(parseConfig(raw)).toBeNull();
    }
  });
});

describe('pickLanguage', () => {
  it('takes the first supported primary language of the visitor', () => {
    expect(pickLanguage(['de-AT', 'en'])).toBe('de');
    expect(pickLanguage(['zz', 'PT-br'])).toBe('pt');
    expect(pickLanguage(['ar-EG'])).toBe('ar');
    expect(pickLanguage(['zz', 'ja'])).toBe('');
    expect(pickLanguage([])).toBe('');
  });

  it('knows the 24 official EU languages and Arabic', () => {
    expect(LANGUAGES).toHaveLength(25);
  });
});

describe('safeUrl', () => {
  it('allows http(s), and data:image only where asked', () => {
    expect(safeUrl('https://example.com/p', false)).toBe('https://example.com/p');
    expect(safeUrl('HTTP://example.com/p', false)).toBe('HTTP://example.com/p');
    expect(safeUrl('data:image/svg+xml;base64,PHN2Zz4=', true)).toBe('data:image/svg+xml;base64,PHN2Zz4=');
    expect(safeUrl('data:image/png;base64,AA==', false)).toBeNull();
  });

  it('refuses script and other schemes', () => {
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,<script>', 'vbscript:x', '//evil.example', '/privacy', null, 7]) {
      expect(safeUrl(bad, true)).toBeNull();
    }
  });
});
