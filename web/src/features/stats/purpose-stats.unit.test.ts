// The figures of the 'Consent by purpose' card, from GET /api/stats/purposes.
import { describe, expect, it } from 'vitest';
import { getMethodShares, getPurposeRows } from './purpose-stats';
import type { PurposeStats } from './queries';

/** The api's answer for one website with 4 choices (services/api/src/stats/stats.int.test.ts). */
const stats: PurposeStats = {
  choices: 4,
  byMethod: { accept_all: 1, reject_all: 1, custom: 2, gpc: 0, jurisdiction_default: 0 },
  purposes: [
    { purpose: 'preferences', offered: 4, granted: 1, acceptanceRate: 25 },
    { purpose: 'analytics', offered: 4, granted: 3, acceptanceRate: 75 },
    { purpose: 'marketing', offered: 4, granted: 2, acceptanceRate: 50 },
    { purpose: 'identification', offered: 0, granted: 0, acceptanceRate: null },
  ],
};

describe('getPurposeRows', () => {
  it('gives each purpose its name and acceptance rate, in the canonical order; never asked is null', () => {
    expect(getPurposeRows(stats)).toEqual([
      { purpose: 'preferences', label: 'Preferences', offered: 4, granted: 1, rate: 25 },
      { purpose: 'analytics', label: 'Analytics', offered: 4, granted: 3, rate: 75 },
      { purpose: 'marketing', label: 'Marketing', offered: 4, granted: 2, rate: 50 },
      { purpose: 'identification', label: 'Identification', offered: 0, granted: 0, rate: null },
    ]);
  });

  it('lists a purpose the answer leaves out as never asked, and orders the rest canonically', () => {
    const rows = getPurposeRows({ ...stats, purposes: [stats.purposes[2]!, stats.purposes[0]!] });
    expect(rows.map((row) => [row.purpose, row.rate])).toEqual([
      ['preferences', 25],
      ['analytics', null],
      ['marketing', 50],
      ['identification', null],
    ]);
  });
});

describe('getMethodShares', () => {
  it('always lists Accept All, Reject All and Customized, each with its share of the choices', () => {
    expect(getMethodShares(stats)).toEqual([
      { method: 'accept_all', label: 'Accept All', count: 1, share: 25 },
      { method: 'reject_all', label: 'Reject All', count: 1, share: 25 },
      { method: 'custom', label: 'Customized', count: 2, share: 50 },
    ]);
  });

  it('adds GPC and the regional default only when some choice was made that way', () => {
    const shares = getMethodShares({ ...stats, choices: 8, byMethod: { accept_all: 2, reject_all: 1, custom: 0, gpc: 1, jurisdiction_default: 4 } });
    expect(shares.map((share) => [share.label, share.count, share.share])).toEqual([
      ['Accept All', 2, 25],
      ['Reject All', 1, 12.5],
      ['Customized', 0, 0],
      ['GPC', 1, 12.5],
      ['Regional default', 4, 50],
    ]);
    expect(getMethodShares({ ...stats, byMethod: { ...stats.byMethod, gpc: 1 } }).map((share) => share.label)).toEqual([
      'Accept All',
      'Reject All',
      'Customized',
      'GPC',
    ]);
  });

  it('gives every method a share of 0 when there are no choices', () => {
    const empty = { choices: 0, byMethod: { accept_all: 0, reject_all: 0, custom: 0, gpc: 0, jurisdiction_default: 0 }, purposes: [] };
    expect(getMethodShares(empty).map((share) => share.share)).toEqual([0, 0, 0]);
  });
});
