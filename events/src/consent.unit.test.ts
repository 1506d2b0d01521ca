import { describe, expect, it } from 'vitest';
import { upcastEventData } from './catalogue';
import { EventsPurged } from './compliance';
import { ConsentChoiceData, ConsentDeclined, ConsentGiven } from './consent';
import { exampleEventData } from './examples';
import { failingPathsOf, failuresOf, text } from './test-helpers';

const valid = exampleEventData.ConsentGiven;

describe('a consent choice as the ingest service records it', () => {
  it('parses for both choices', () => {
    expect(ConsentGiven.schema.parse(valid)).toEqual(valid);
    expect(ConsentDeclined.schema.parse(exampleEventData.ConsentDeclined)).toEqual(exampleEventData.ConsentDeclined);
  });

  it('defines both events as version 2 of the consent category', () => {
    expect([ConsentGiven.type, ConsentGiven.version, ConsentGiven.category]).toEqual(['ConsentGiven', 2, 'consent']);
    expect([ConsentDeclined.type, ConsentDeclined.version, ConsentDeclined.category]).toEqual([
      'ConsentDeclined',
      2,
      'consent',
    ]);
  });

  it('parses with every nullable field null', () => {
    const minimal = {
      ...valid,
      language: null,
      pageUrl: null,
      ipAddress: null,
      userAgent: null,
      country: null,
      city: null,
      email: null,
    };
    expect(failuresOf(ConsentChoiceData, minimal)).toEqual([]);
  });

  it('parses an IPv6 address, an enriched email and values at their bounds', () => {
    const atBounds = {
      ...valid,
      visitorId: text(64),
      policyVersion: text(64),
      language: text(16),
      pageUrl: text(2048),
      ipAddress: '2001:db8:85a3::8a2e:370:7334',
      userAgent: text(512),
      city: text(128),
      email: `${text(64)}@${text(185)}.com`,
      source: 'reopened',
      deviceClass: 'bot',
    };
    expect(atBounds.email).toHaveLength(254);
    expect(failuresOf(ConsentChoiceData, atBounds)).toEqual([]);
  });
});

describe('when a consent field is out of bounds', () => {
  it.each([
    ['websiteId', 'not-a-uuid', 'Invalid UUID'],
    ['visitorId', '', 'Too small: expected string to have >=1 characters'],
    ['visitorId', text(65), 'Too big: expected string to have <=64 characters'],
    [
      'source',
      'popup',
      'Invalid option: expected one of "banner"|"gpc"|"reopened"|"placeholder"|"api"|"opt_out_link"|"jurisdiction"',
    ],
    ['policyVersion', '', 'Too small: expected string to have >=1 characters'],
    ['policyVersion', text(65), 'Too big: expected string to have <=64 characters'],
    ['language', text(17), 'Too big: expected string to have <=16 characters'],
    ['pageUrl', text(2049), 'Too big: expected string to have <=2048 characters'],
    ['ipAddress', '1'.repeat(46), 'Invalid IP address'],
    ['ipAddress', 'localhost', 'Invalid IP address'],
    ['userAgent', text(513), 'Too big: expected string to have <=512 characters'],
    ['deviceClass', 'phone', 'Invalid option: expected one of "mobile"|"tablet"|"desktop"|"bot"|"unknown"'],
    ['country', 'de', 'Expected an ISO 3166-1 alpha-2 country code'],
    ['country', 'DEU', 'Expected an ISO 3166-1 alpha-2 country code'],
    ['city', text(129), 'Too big: expected string to have <=128 characters'],
    ['email', 'not-an-email', 'Invalid email address'],
    ['occurredAt', '2024-05-01', 'Invalid ISO datetime'],
    ['receivedAt', 1714557600000, 'Invalid input: expected string, received number'],
  ])('refuses %s = %j', (field, value, message) => {
    expect(failuresOf(ConsentChoiceData, { ...valid, [field]: value })).toEqual([{ path: field, message }]);
  });

  it('refuses an email longer than 254 characters', () => {
    const email = `${text(64)}@${text(186)}.com`;
    expect(failingPathsOf(ConsentChoiceData, { ...valid, email })).toEqual(['email']);
  });

  it('refuses a missing field', () => {
    const { receivedAt: _receivedAt, ...withoutReceivedAt } = valid;
    expect(failingPathsOf(ConsentChoiceData, withoutReceivedAt)).toEqual(['receivedAt']);
  });

  it('refuses a field the catalogue does not know', () => {
    expect(failuresOf(ConsentChoiceData, { ...valid, choice: 'accepted' })).toEqual([
      { path: '', message: 'Unrecognized key: "choice"' },
    ]);
  });
});

const none = { preferences: false, analytics: false, marketing: false, identification: false };

describe('the purposes a choice records', () => {
  it('makes a choice that grants one purpose a ConsentGiven, and one that grants none a ConsentDeclined', () => {
    const analyticsOnly = { ...valid, purposes: { ...none, analytics: true } };
    expect(failuresOf(ConsentGiven.schema, analyticsOnly)).toEqual([]);
    expect(failuresOf(ConsentDeclined.schema, analyticsOnly)).toEqual([
      { path: 'purposes', message: 'A ConsentDeclined event grants no optional purpose' },
    ]);
    expect(failuresOf(ConsentGiven.schema, { ...valid, purposes: none })).toEqual([
      { path: 'purposes', message: 'A ConsentGiven event grants at least one optional purpose' },
    ]);
  });

  it('refuses a purpose granted that the banner did not offer', () => {
    const data = { ...valid, offered: ['analytics'], purposes: { ...none, analytics: true, marketing: true } };
    expect(failuresOf(ConsentGiven.schema, data)).toEqual([
      { path: 'purposes', message: 'Only a purpose the banner offered can be granted' },
    ]);
  });

  it.each([
    [['analytics', 'analytics'], 'offered'],
    [['marketing', 'analytics'], 'offered'],
    [['necessary'], 'offered.[0]'],
  ])('refuses offered purposes %j (each once, in order, optional only)', (offered, path) => {
    expect(failuresOf(ConsentChoiceData, { ...valid, offered }).map((failure) => failure.path)).toEqual([path]);
  });

  it('refuses a purpose map with a missing or an unknown purpose', () => {
    const { identification: _left, ...missing } = none;
    expect(failuresOf(ConsentChoiceData, { ...valid, purposes: missing }).map((failure) => failure.path)).toEqual([
      'purposes.identification',
    ]);
    expect(failuresOf(ConsentChoiceData, { ...valid, purposes: { ...none, necessary: true } })[0]?.path).toBe('purposes');
  });

  it('names the rule and the region it applied for', () => {
    expect(failuresOf(ConsentChoiceData, { ...valid, rule: { rule: 'opt_out', region: 'US-CA' } })).toEqual([]);
    expect(failuresOf(ConsentChoiceData, { ...valid, rule: { rule: 'opt_in', region: null } })).toEqual([]);
    expect(failuresOf(ConsentChoiceData, { ...valid, rule: { rule: 'opt_in', region: 'Europe' } })).toEqual([
      { path: 'rule.region', message: 'Expected EU, a country code (GB) or a subdivision (US-CA)' },
    ]);
  });
});

describe('a version 1 choice read today', () => {
  const v1 = (() => {
    const { offered: _o, purposes: _p, method: _m, rule: _r, shownLanguage: _l, textsHash: _t, ...rest } = valid;
    return rest;
  })();

  it('was an acceptance of every purpose its banner had: preferences, analytics and marketing', () => {
    const lifted = upcastEventData('ConsentGiven', 1, v1);
    expect(ConsentGiven.schema.parse(lifted)).toEqual({
      ...v1,
      offered: ['preferences', 'analytics', 'marketing'],
      purposes: { preferences: true, analytics: true, marketing: true, identification: false },
      method: 'accept_all',
      rule: { rule: 'opt_in', region: null },
      shownLanguage: null,
      textsHash: null,
    });
  });

  it('was a decline of all of them, by Reject All on the banner or by Global Privacy Control', () => {
    const onBanner = ConsentDeclined.schema.parse(upcastEventData('ConsentDeclined', 1, v1));
    expect([onBanner.purposes, onBanner.method]).toEqual([none, 'reject_all']);
    const byGpc = ConsentDeclined.schema.parse(upcastEventData('ConsentDeclined', 1, { ...v1, source: 'gpc' }));
    expect([byGpc.purposes, byGpc.method]).toEqual([none, 'gpc']);
  });

  it('leaves the stored data as it was', () => {
    const stored = structuredClone(v1);
    upcastEventData('ConsentGiven', 1, stored);
    expect(stored).toEqual(v1);
  });
});

describe('a version 1 purge summary read today', () => {
  it('counts the purposes its all-or-nothing choices offered and granted, per day and method', () => {
    const { purposes: _purposes, ...v1 } = exampleEventData.EventsPurged;
    const v1Data = {
      ...v1,
      consents: [
        { day: '2022-04-30', deviceClass: 'mobile', source: 'banner', accepted: 30, declined: 10 },
        { day: '2022-04-30', deviceClass: 'desktop', source: 'banner', accepted: 5, declined: 0 },
        { day: '2022-04-30', deviceClass: 'desktop', source: 'gpc', accepted: 0, declined: 4 },
      ],
    };
    const lifted = EventsPurged.schema.parse(upcastEventData('EventsPurged', 1, v1Data));
    const legacy = (n: number) => ({ preferences: n, analytics: n, marketing: n, identification: 0 });
    expect(lifted.purposes).toEqual([
      { day: '2022-04-30', method: 'accept_all', choices: 35, offered: legacy(35), granted: legacy(35) },
      { day: '2022-04-30', method: 'reject_all', choices: 10, offered: legacy(10), granted: legacy(0) },
      { day: '2022-04-30', method: 'gpc', choices: 4, offered: legacy(4), granted: legacy(0) },
    ]);
  });
});
