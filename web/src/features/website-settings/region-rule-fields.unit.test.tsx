// Rules by region as the api takes them: `EU`, a country code or a subdivision, each once, sent as
// one map; an untouched table is no change.
import { describe, expect, it } from 'vitest';
import { checkRegionRuleDrafts, sameRegionRules, toRegionRuleDrafts, toRegionRules, type RegionRuleDraft } from './region-rule-fields';
import { checkRegionCode, duplicateRegionProblem, regionCodeProblem } from './validation';

describe('checkRegionCode', () => {
  it.each([
    ['EU', 'EU'],
    ['GB', 'GB'],
    ['us-ca', 'US-CA'],
    [' br ', 'BR'],
    ['FR-75C', 'FR-75C'],
    ['GB-1', 'GB-1'],
  ])('takes %j as %s', (input, code) => {
    expect(checkRegionCode(input)).toEqual({ ok: true, value: code });
  });

  it.each(['', 'E', 'EUR', 'USA', 'US-', 'US-CALI', 'US_CA', 'U1', 'EU DE', '12'])('refuses %j', (input) => {
    expect(checkRegionCode(input)).toEqual({ ok: false, problem: regionCodeProblem });
  });
});

const rows = (...entries: [string, RegionRuleDraft['rule']][]): RegionRuleDraft[] => entries.map(([region, rule], key) => ({ key, region, rule }));

describe('toRegionRules', () => {
  it('sends the rules as one map, regions in upper case and in order', () => {
    const rules = toRegionRules(rows(['us-tx', 'notice_only'], ['EU', 'opt_in'], ['gb', 'opt_out']));
    expect(rules).toEqual({ EU: 'opt_in', GB: 'opt_out', 'US-TX': 'notice_only' });
    expect(Object.keys(rules ?? {})).toEqual(['EU', 'GB', 'US-TX']);
    expect(toRegionRules([])).toEqual({});
  });

  it('is null while a region is invalid or named twice, and says which row', () => {
    expect(toRegionRules(rows(['EU', 'opt_in'], ['XYZ', 'opt_out']))).toBeNull();
    const twice = rows(['US-CA', 'opt_in'], ['us-ca', 'opt_out']);
    expect(toRegionRules(twice)).toBeNull();
    expect(checkRegionRuleDrafts(twice)).toEqual([
      { ok: true, value: 'US-CA' },
      { ok: false, problem: duplicateRegionProblem },
    ]);
  });

  it('takes at most 300 regions', () => {
    const many = Array.from({ length: 301 }, (_, index): RegionRuleDraft => ({
      key: index,
      region: `${String.fromCharCode(65 + Math.floor(index / 26) % 26)}${String.fromCharCode(65 + (index % 26))}-${index % 10}`,
      rule: 'opt_in',
    }));
    expect(toRegionRules(many.slice(0, 300))).not.toBeNull();
    expect(toRegionRules(many)).toBeNull();
  });
});

describe('toRegionRuleDrafts and sameRegionRules', () => {
  it('fills a row per saved rule and counts the saved rules, in any order, as unchanged', () => {
    const saved = { 'US-CA': 'opt_in', GB: 'opt_out' } as const;
    expect(toRegionRuleDrafts(saved, 5)).toEqual([
      { key: 5, region: 'US-CA', rule: 'opt_in' },
      { key: 6, region: 'GB', rule: 'opt_out' },
    ]);
    expect(sameRegionRules(toRegionRules(toRegionRuleDrafts(saved)) ?? {}, saved)).toBe(true);
    expect(sameRegionRules({ GB: 'opt_out' }, saved)).toBe(false);
    expect(sameRegionRules({}, {})).toBe(true);
  });
});
