import { describe, expect, it } from 'vitest';
import type { ScannedItem } from '@consentry/events';
import { servicesWithDetected } from './detected-services';

const item = (name: string, purpose: ScannedItem['purpose'], platform: string | null, controller: string | null = null): ScannedItem => ({
  kind: 'cookie',
  name,
  domain: '.example.com',
  purpose,
  source: 'database',
  platform,
  controller,
  retention: null,
  firstParty: true,
  firstSeenUrl: 'https://www.example.com/',
  seenBefore: false,
  seenAfterAccept: true,
  seenAfterReject: false,
});

describe('servicesWithDetected', () => {
  it('keeps the declared services first and adds what the scan found, by purpose and platform', () => {
    const declared = [{ purpose: 'marketing' as const, name: 'Meta Pixel', description: 'Ads', cookies: ['_fbp'] }];
    const items = [
      item('_ga', 'analytics', 'Google Analytics', 'Google'),
      item('_ga_ABC', 'analytics', 'Google Analytics', 'Google'),
      item('_fbp', 'marketing', 'Facebook', 'Meta'),
      item('_gcl_au', 'marketing', 'Google Ads', 'Google'),
      item('PHPSESSID', 'necessary', 'PHP'),
      item('mystery', null, null),
      item('lang', 'preferences', null, null),
    ];
    expect(servicesWithDetected(declared, items)).toEqual([
      declared[0],
      { purpose: 'analytics', name: 'Google Analytics', description: 'Google', cookies: ['_ga', '_ga_ABC'] },
      { purpose: 'marketing', name: 'Google Ads', description: 'Google', cookies: ['_gcl_au'] },
      { purpose: 'preferences', name: 'Other services', description: '', cookies: ['lang'] },
    ]);
  });

  it('is the declared list alone before any scan', () => {
    const declared = [{ purpose: 'analytics' as const, name: 'Plausible', description: '', cookies: [] }];
    expect(servicesWithDetected(declared, [])).toEqual(declared);
  });
});
