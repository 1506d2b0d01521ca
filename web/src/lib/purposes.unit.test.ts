// The purpose names the app shows, in the one order the api and the banner use.
import { describe, expect, it } from 'vitest';
import { formatPurposeList, sortPurposes } from './purposes';

describe('sortPurposes', () => {
  it('puts purposes in the canonical order, each once, and leaves out what is no optional purpose', () => {
    expect(sortPurposes(['identification', 'analytics', 'preferences', 'analytics', 'necessary', 'tracking'])).toEqual([
      'preferences',
      'analytics',
      'identification',
    ]);
    expect(sortPurposes([])).toEqual([]);
  });
});

describe('formatPurposeList', () => {
  it('names the purposes as the app shows them, in the canonical order', () => {
    expect(formatPurposeList(['analytics', 'preferences'])).toBe('Preferences, Analytics');
    expect(formatPurposeList(['marketing'])).toBe('Marketing');
    expect(formatPurposeList(['preferences', 'analytics', 'marketing', 'identification'])).toBe('Preferences, Analytics, Marketing, Identification');
    expect(formatPurposeList([])).toBe('');
  });
});
