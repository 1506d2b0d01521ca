// The monthly resolution cap field (docs/identification.md, "Limits"): empty is no limit, otherwise a
// whole number from 1 to 10,000,000, as the api takes it.
import { describe, expect, it } from 'vitest';
import { checkMonthlyResolutionCap, resolutionCapProblem } from './validation';

describe('the monthly resolution cap field', () => {
  it('reads empty as no limit and a whole number as the cap, thousands separators allowed', () => {
    expect(checkMonthlyResolutionCap('')).toEqual({ ok: true, value: null });
    expect(checkMonthlyResolutionCap('  ')).toEqual({ ok: true, value: null });
    expect(checkMonthlyResolutionCap('500')).toEqual({ ok: true, value: 500 });
    expect(checkMonthlyResolutionCap('10,000,000')).toEqual({ ok: true, value: 10_000_000 });
  });

  it('refuses zero, fractions, words and more than ten million', () => {
    for (const input of ['0', '2.5', '-3', 'lots', '10000001']) expect(checkMonthlyResolutionCap(input)).toEqual({ ok: false, problem: resolutionCapProblem });
  });
});
