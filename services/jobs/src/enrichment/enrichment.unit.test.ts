// The pure parts of enrichment: back-off, bounded details, and the Hunter mapping.
import { describe, expect, it } from 'vitest';
import { mapHunterAnswer } from './hunter-provider';
import { enrichmentOutcomeEventId } from './jobs';
import { boundedDetails, cutText } from './provider';
import { backoffMs } from './worker';

describe('the back-off', () => {
  const at = (attempts: number, random: number, retryAfterMs: number | null = null) => backoffMs(attempts, { baseMs: 1_000, maxMs: 60_000, retryAfterMs, random });

  it('doubles with each attempt, between half and all of it, up to the cap', () => {
    expect([1, 2, 3, 4].map((attempts) => at(attempts, 1))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect([1, 2, 3, 4].map((attempts) => at(attempts, 0))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(at(40, 1)).toBe(60_000);
  });

  it('never comes sooner than the provider asked', () => {
    expect(at(1, 0, 30_000)).toBe(30_000);
    expect(at(4, 1, 10)).toBe(8_000);
  });
});

describe('bounded details', () => {
  it('cut text to what the event holds without splitting a character, and drop what jsonb cannot store', () => {
    expect(cutText('ab😀', 3)).toBe('ab');
    expect(cutText('ab😀', 4)).toBe('ab😀');
    const details = boundedDetails({ name: ` ${'x'.repeat(300)} `, title: 'CE\u0000O', company: '\ud800', domain: 'Example.COM', size: '' });
    expect(details).toEqual({ name: 'x'.repeat(200), title: 'CEO', company: null, domain: 'example.com', industry: null, size: null, linkedinUrl: null, location: null });
  });
});

describe('the outcome event id', () => {
  it('is a UUID (version 8) of the job, the same every time and another for another job', () => {
    const id = enrichmentOutcomeEventId('2B0F9A4E-6F1C-4A8E-9D41-6F3C2E1B7A90');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(enrichmentOutcomeEventId('2b0f9a4e-6f1c-4a8e-9d41-6f3c2e1b7a90')).toBe(id);
    expect(enrichmentOutcomeEventId('2b0f9a4e-6f1c-4a8e-9d41-6f3c2e1b7a91')).not.toBe(id);
  });
});

describe('Hunter’s person and company', () => {
  it('fall back from the person’s name parts and geo, and refuse LinkedIn handles that are not handles', () => {
    const details = mapHunterAnswer(
      { name: { fullName: null, givenName: 'Grace', familyName: 'Hopper' }, location: null, geo: { city: 'Arlington', state: null, country: 'United States' }, linkedin: { handle: '../evil' } },
      { name: 'Compilers Inc', metrics: { employees: 120 }, linkedin: { handle: 'company/compilers-inc' } },
    );
    expect(details).toMatchObject({ name: 'Grace Hopper', location: 'Arlington, United States', company: 'Compilers Inc', size: '120', linkedinUrl: null });
  });

  it('give nothing when both are empty', () => {
    expect(mapHunterAnswer(null, null)).toBeNull();
    expect(mapHunterAnswer({ name: null }, { name: null })).toBeNull();
  });
});
