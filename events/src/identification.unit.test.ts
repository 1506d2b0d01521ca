import { describe, expect, it } from 'vitest';
import { upcastToCurrentVersion } from './definition';
import { allowsIdentification, normaliseEmail, VisitorIdentifiedData } from './identification';
import { SubscriptionPlanPublished, SubscriptionPlanPublishedData } from './plan';
import { grantAll, grantNone, optionalPurposes } from './purposes';
import { exampleEventData } from './examples';
import { acceptedEmails, refusedEmails } from './email-corpus.test-helper';

describe('allowsIdentification', () => {
  const all = grantAll(optionalPurposes);
  it('is the visitor’s own act: Accept All or a custom choice with the purpose on', () => {
    expect(allowsIdentification({ purposes: all, method: 'accept_all' })).toBe(true);
    expect(allowsIdentification({ purposes: { ...grantNone, identification: true }, method: 'custom' })).toBe(true);
  });
  it('is never a region’s default, a GPC signal or a choice without the purpose', () => {
    expect(allowsIdentification({ purposes: all, method: 'jurisdiction_default' })).toBe(false);
    expect(allowsIdentification({ purposes: all, method: 'gpc' })).toBe(false);
    expect(allowsIdentification({ purposes: { ...all, identification: false }, method: 'accept_all' })).toBe(false);
    expect(allowsIdentification({ purposes: grantNone, method: 'reject_all' })).toBe(false);
  });
});

describe('normaliseEmail', () => {
  it('trims and lower-cases an address', () => {
    expect(normaliseEmail('  Ada.Lovelace@Example.CO.uk ')).toBe('ada.lovelace@example.co.uk');
  });
  it.each(['', 'ada', 'ada@', '@example.com', 'ada@example', 'a b@example.com', 'ada@exa_mple.com', `${'a'.repeat(65)}@example.com`])(
    'refuses %j',
    (raw) => expect(normaliseEmail(raw)).toBeNull(),
  );
  it.each(acceptedEmails)('takes what a mail server would deliver to: %j', (raw) => {
    expect(normaliseEmail(` ${raw} `)).toBe(raw.toLowerCase());
  });
  it.each(refusedEmails)('refuses markup, injections and forms a lead never needs: %j', (raw) => {
    expect(normaliseEmail(raw)).toBeNull();
    expect(VisitorIdentifiedData.safeParse({ ...exampleEventData.VisitorIdentified, email: raw.toLowerCase() }).success).toBe(false);
  });
  it('is what a VisitorIdentified event accepts, and nothing un-normalised', () => {
    const example = exampleEventData.VisitorIdentified;
    expect(VisitorIdentifiedData.safeParse(example).success).toBe(true);
    expect(VisitorIdentifiedData.safeParse({ ...example, email: 'Ada@example.com' }).success).toBe(false);
  });
});

describe('a version 1 plan', () => {
  it('is lifted with the spec’s per-resolution rate and data types', () => {
    const { perResolutionCents: _rate, dataTypes: _types, ...v1 } = exampleEventData.SubscriptionPlanPublished;
    for (const [planId, rate, types] of [
      ['free', null, ['b2c']],
      ['basic', 29, ['b2c']],
      ['pro', 25, ['b2b', 'b2c']],
      ['business', 20, ['b2b', 'b2c']],
    ] as const) {
      const lifted = SubscriptionPlanPublishedData.parse(upcastToCurrentVersion(SubscriptionPlanPublished, 1, { ...v1, planId }));
      expect(lifted).toMatchObject({ planId, perResolutionCents: rate, dataTypes: types });
    }
  });
});
