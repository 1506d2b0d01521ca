import { describe, expect, it } from 'vitest';
import { parseConfig, safeUrl } from './config';

describe('parseConfig', () => {
  it('takes the documented answer as is', () => {
    expect(
      parseConfig({
        websiteId: '6f1d0c2e-8a4b-4c3d-9e5f-1a2b3c4d5e6f',
        companyName: 'Acme',
        logoUrl: 'data:image/png;base64,iVBORw0KGgo=',
        primaryColor: '#2563EB',
        privacyPolicyUrl: 'https://example.com/privacy',
        policyVersion: '1',
        language: 'en',
      }),
    ).toEqual({
      companyName: 'Acme',
      logoUrl: 'data:image/png;base64,iVBORw0KGgo=',
      primaryColor: '#2563eb',
      privacyPolicyUrl: 'https://example.com/privacy',
      policyVersion: '1',
    });
  });

  it('fills the documented nulls and defaults', () => {
    expect(parseConfig({ companyName: 'Acme', logoUrl: null, primaryColor: null, privacyPolicyUrl: null, policyVersion: '2' })).toEqual({
      companyName: 'Acme',
      logoUrl: null,
      primaryColor: '#2563eb',
      privacyPolicyUrl: null,
      policyVersion: '2',
    });
  });

  it('is unusable without a policy version', () => {
    for (const raw of [null, 'x', [], {}, { policyVersion: '' }, { policyVersion: 3 }]) expect(parseConfig(raw)).toBeNull();
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
