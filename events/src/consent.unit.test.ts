import { describe, expect, it } from 'vitest';
import { ConsentChoiceData, ConsentDeclined, ConsentGiven } from './consent';
import { exampleEventData } from './examples';
import { failingPathsOf, failuresOf, text } from './test-helpers';

const valid = exampleEventData.ConsentGiven;

describe('a consent choice as the ingest service records it', () => {
  it('parses for both choices', () => {
    expect(ConsentGiven.schema.parse(valid)).toEqual(valid);
    expect(ConsentDeclined.schema.parse(exampleEventData.ConsentDeclined)).toEqual(exampleEventData.ConsentDeclined);
  });

  it('defines both events as version 1 of the consent category', () => {
    expect([ConsentGiven.type, ConsentGiven.version, ConsentGiven.category]).toEqual(['ConsentGiven', 1, 'consent']);
    expect([ConsentDeclined.type, ConsentDeclined.version, ConsentDeclined.category]).toEqual([
      'ConsentDeclined',
      1,
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
    ['source', 'popup', 'Invalid option: expected one of "banner"|"gpc"|"reopened"'],
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
