import { beforeEach, describe, expect, it } from 'vitest';
import {
  choiceKey,
  decideOnLoad,
  getVisitorId,
  parseStoredChoice,
  readStoredChoice,
  VISITOR_KEY,
  writeStoredChoice,
  type ChoiceTerms,
  type StoredChoice,
} from './choice';
import { UUID_PATTERN } from './ids';
import { grant, type Purpose } from './purposes';

const OFFERED: Purpose[] = ['preferences', 'analytics', 'marketing'];
const accepted: StoredChoice = {
  offered: OFFERED,
  purposes: grant(OFFERED, true),
  method: 'accept_all',
  policyVersion: '1',
  decidedAt: '2025-05-01T10:00:00.000Z',
};
const TERMS: ChoiceTerms = { policyVersion: '1', purposes: OFFERED, consentLifetimeMonths: 12, domain: 'example.com' };
const NOW = Date.parse('2025-06-01T10:00:00.000Z');

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'consentry_emb_site_a=; max-age=0; path=/; domain=example.com';
});

describe('the stored choice', () => {
  it('is kept per embed code, under a consentry: key, with its purposes and policy version', () => {
    writeStoredChoice('emb_site_a', accepted, TERMS);
    expect(choiceKey('emb_site_a')).toBe('consentry:choice:emb_site_a');
    expect(JSON.parse(localStorage.getItem('consentry:choice:emb_site_a') ?? 'null')).toEqual(accepted);
    expect(readStoredChoice('emb_site_a')).toEqual(accepted);
    expect(readStoredChoice('emb_site_b')).toBeNull();
  });

  it('is also in a cookie, so a subdomain without the localStorage entry reads it', () => {
    writeStoredChoice('emb_site_a', accepted, TERMS);
    localStorage.clear();
    expect(readStoredChoice('emb_site_a')).toEqual(accepted);
  });

  it('prefers the newer of cookie and localStorage', () => {
    const later = { ...accepted, purposes: grant(OFFERED, false), method: 'reject_all' as const, decidedAt: '2025-05-02T10:00:00.000Z' };
    writeStoredChoice('emb_site_a', later, TERMS);
    localStorage.setItem(choiceKey('emb_site_a'), JSON.stringify(accepted));
    expect(readStoredChoice('emb_site_a')).toEqual(later);
  });

  it('reads a widget 1 choice as that banner worked: all three purposes, or none', () => {
    const v1 = (choice: string) => ({ choice, policyVersion: '1', decidedAt: accepted.decidedAt });
    expect(parseStoredChoice(v1('accepted'))).toEqual(accepted);
    expect(parseStoredChoice(v1('declined'))).toEqual({ ...accepted, purposes: grant(OFFERED, false), method: 'reject_all' });
  });

  it('grants nothing that was not offered, whatever the storage says', () => {
    const tampered = { ...accepted, offered: ['analytics', 'nonsense'], purposes: { analytics: true, marketing: true } };
    expect(parseStoredChoice(tampered)?.purposes).toEqual({ preferences: false, analytics: true, marketing: false, identification: false });
    expect(parseStoredChoice(tampered)?.offered).toEqual(['analytics']);
  });

  it("keeps the consent event's id, the proof identification names; anything but a UUID reads as none", () => {
    const eventId = '3e8b02e5-0dce-4ce7-83e3-8bb264b8ba17';
    writeStoredChoice('emb_site_a', { ...accepted, eventId }, TERMS);
    expect(readStoredChoice('emb_site_a')?.eventId).toBe(eventId);
    localStorage.clear();
    // From the cookie too (another subdomain).
    expect(readStoredChoice('emb_site_a')?.eventId).toBe(eventId);
    for (const bad of ['nope', 7, null, eventId.toUpperCase()]) {
      expect(parseStoredChoice({ ...accepted, eventId: bad })?.eventId).toBeUndefined();
    }
    expect(parseStoredChoice({ choice: 'accepted', policyVersion: '1', decidedAt: accepted.decidedAt })?.eventId).toBeUndefined();
  });

  it('reads as none when malformed or tampered with', () => {
    for (const raw of ['{', '"accepted"', '{"choice":"maybe","policyVersion":"1"}', '{"choice":"accepted"}', 'null', '{"policyVersion":"1","decidedAt":"x"}']) {
      localStorage.setItem(choiceKey('emb_site_a'), raw);
      expect(readStoredChoice('emb_site_a')).toBeNull();
    }
  });
});

describe('decideOnLoad', () => {
  describe('when a choice is stored for the current terms', () => {
    it('applies it, even with Global Privacy Control on (the visitor opted in later), whatever the rule', () => {
      expect(decideOnLoad(accepted, TERMS, false, 'opt_in', NOW)).toBe(accepted);
      expect(decideOnLoad(accepted, TERMS, true, 'opt_in', NOW)).toBe(accepted);
      expect(decideOnLoad(accepted, TERMS, false, 'opt_out', NOW)).toBe(accepted);
    });
  });

  describe('when the terms changed', () => {
    it('asks again for another policy version, other purposes, or after the consent lifetime', () => {
      expect(decideOnLoad(accepted, { ...TERMS, policyVersion: '2' }, false, 'opt_in', NOW)).toBe('ask');
      expect(decideOnLoad(accepted, { ...TERMS, purposes: ['analytics'] }, false, 'opt_in', NOW)).toBe('ask');
      expect(decideOnLoad(accepted, { ...TERMS, consentLifetimeMonths: 1 }, false, 'opt_in', NOW)).toBe('ask');
      expect(decideOnLoad(accepted, { ...TERMS, consentLifetimeMonths: 2 }, false, 'opt_in', NOW)).toBe(accepted);
    });
    it('declines for GPC again', () => {
      expect(decideOnLoad(accepted, { ...TERMS, policyVersion: '2' }, true, 'opt_in', NOW)).toBe('gpc');
    });
  });

  describe('when nothing is stored', () => {
    it('asks without GPC and declines for GPC in an opt-in region', () => {
      expect(decideOnLoad(null, TERMS, false)).toBe('ask');
      expect(decideOnLoad(null, TERMS, true)).toBe('gpc');
    });
    it("records the region's default in opt-out and notice-only regions, unless GPC says no", () => {
      expect(decideOnLoad(null, TERMS, false, 'opt_out')).toBe('default');
      expect(decideOnLoad(null, TERMS, false, 'notice_only')).toBe('default');
      expect(decideOnLoad(null, TERMS, true, 'opt_out')).toBe('gpc');
    });
  });
});

describe('getVisitorId', () => {
  it('creates a v4 UUID once and keeps it in localStorage', () => {
    const id = getVisitorId();
    expect(id).toMatch(UUID_PATTERN);
    expect(JSON.parse(localStorage.getItem(VISITOR_KEY) ?? 'null')).toBe(id);
    expect(getVisitorId()).toBe(id);
  });

  it('replaces a stored value that is not a UUID', () => {
    localStorage.setItem(VISITOR_KEY, '"not-a-uuid"');
    const id = getVisitorId();
    expect(id).toMatch(UUID_PATTERN);
    expect(getVisitorId()).toBe(id);
  });
});
