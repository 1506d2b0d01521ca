import { describe, expect, it } from 'vitest';
import { defaultRuleFor, regionOf, ruleForRegion, subdivisionCode, usOptOutStates } from './jurisdictions';

const noRules = { regionRules: {}, forceOptIn: false };

describe('regionOf', () => {
  it('names the EU and EEA as one region, a US state by its code, other countries by theirs', () => {
    expect(regionOf('DE')).toBe('EU');
    expect(regionOf('NO')).toBe('EU');
    expect(regionOf('CH')).toBe('CH');
    expect(regionOf('US', 'CA')).toBe('US-CA');
    expect(regionOf('US')).toBe('US');
    expect(regionOf(null)).toBeNull();
  });
});

describe('the default rules', () => {
  it('are opt-out in the US opt-out states, California first, and opt-in everywhere else, unknown included', () => {
    expect(usOptOutStates.has('CA')).toBe(true);
    for (const state of usOptOutStates) expect(defaultRuleFor(`US-${state}`)).toBe('opt_out');
    for (const region of ['EU', 'GB', 'CH', 'BR', 'US', 'US-NY', 'JP', null]) expect(defaultRuleFor(region), String(region)).toBe('opt_in');
  });
});

describe('ruleForRegion', () => {
  it("takes the owner's rule for the state, then for its country, then the default", () => {
    const settings = { regionRules: { 'US-CA': 'opt_in', US: 'notice_only', GB: 'opt_out' } as const, forceOptIn: false };
    expect(ruleForRegion('US-CA', settings)).toBe('opt_in');
    expect(ruleForRegion('US-TX', settings)).toBe('notice_only');
    expect(ruleForRegion('GB', settings)).toBe('opt_out');
    expect(ruleForRegion('EU', settings)).toBe('opt_in');
    expect(ruleForRegion('US-VA', noRules)).toBe('opt_out');
  });

  it('is opt-in everywhere when the owner forces it, and for a visitor whose region is unknown', () => {
    expect(ruleForRegion('US-CA', { regionRules: { GB: 'opt_out' }, forceOptIn: true })).toBe('opt_in');
    expect(ruleForRegion('GB', { regionRules: { GB: 'opt_out' }, forceOptIn: true })).toBe('opt_in');
    expect(ruleForRegion(null, noRules)).toBe('opt_in');
  });
});

describe('subdivisionCode', () => {
  it('reads US states by name or code and ignores other countries', () => {
    expect(subdivisionCode('US', 'California')).toBe('CA');
    expect(subdivisionCode('US', 'tx')).toBe('TX');
    expect(subdivisionCode('US', 'Nowhere')).toBeNull();
    expect(subdivisionCode('DE', 'Bayern')).toBeNull();
    expect(subdivisionCode('US', null)).toBeNull();
  });
});
