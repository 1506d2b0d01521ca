import { beforeEach, describe, expect, it } from 'vitest';
import {
  choiceKey,
  decideOnLoad,
  getVisitorId,
  readStoredChoice,
  VISITOR_KEY,
  writeStoredChoice,
  type StoredChoice,
} from './choice';
import { UUID_PATTERN } from './ids';

const accepted: StoredChoice = { choice: 'accepted', policyVersion: '1', decidedAt: '2025-05-01T10:00:00.000Z' };

beforeEach(() => {
  localStorage.clear();
});

describe('the stored choice', () => {
  it('is kept per embed code, under a consentry: key, with its policy version', () => {
    writeStoredChoice('emb_site_a', accepted);
    expect(choiceKey('emb_site_a')).toBe('consentry:choice:emb_site_a');
    expect(JSON.parse(localStorage.getItem('consentry:choice:emb_site_a') ?? 'null')).toEqual(accepted);
    expect(readStoredChoice('emb_site_a')).toEqual(accepted);
    expect(readStoredChoice('emb_site_b')).toBeNull();
  });

  it('reads as none when malformed or tampered with', () => {
    for (const raw of ['{', '"accepted"', '{"choice":"maybe","policyVersion":"1"}', '{"choice":"accepted"}', 'null']) {
      localStorage.setItem(choiceKey('emb_site_a'), raw);
      expect(readStoredChoice('emb_site_a')).toBeNull();
    }
  });
});

describe('decideOnLoad', () => {
  describe('when a choice is stored for the current policy version', () => {
    it('applies it, even with Global Privacy Control on (the visitor opted in later)', () => {
      expect(decideOnLoad(accepted, '1', false)).toBe('accepted');
      expect(decideOnLoad(accepted, '1', true)).toBe('accepted');
      expect(decideOnLoad({ ...accepted, choice: 'declined' }, '1', false)).toBe('declined');
    });
  });

  describe('when the stored choice is for another policy version', () => {
    it('asks again', () => {
      expect(decideOnLoad(accepted, '2', false)).toBe('ask');
    });
    it('declines for GPC again', () => {
      expect(decideOnLoad(accepted, '2', true)).toBe('gpc');
    });
  });

  describe('when nothing is stored', () => {
    it('asks without GPC and declines for GPC', () => {
      expect(decideOnLoad(null, '1', false)).toBe('ask');
      expect(decideOnLoad(null, '1', true)).toBe('gpc');
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
