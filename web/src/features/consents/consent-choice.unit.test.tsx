// The Consent column (spec section 4, granular consent): Accepted, Declined and Unknown as before, and
// 'Partial' with the purposes granted for a customized choice that left some offered purpose out.
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getConsentLabel, getPartiallyGrantedPurposes } from './consent-choice';
import { ConsentRecordsList } from './consent-records-list';
import type { ConsentRecord } from './queries';

const offered = ['preferences', 'analytics', 'marketing'] as const;

function record(overrides: Partial<ConsentRecord>): ConsentRecord {
  return {
    id: 'c1',
    websiteId: 'w1',
    timestamp: '2024-05-01T12:05:00Z',
    consentChoice: 'accepted',
    country: 'DE',
    city: 'Berlin',
    email: null,
    ipAddress: '203.0.113.0',
    offeredPurposes: [...offered],
    grantedPurposes: [...offered],
    method: 'accept_all',
    rule: 'opt_in',
    region: 'EU',
    ...overrides,
  };
}

/** A record the contract does not allow (an older api, a value it never sends): the labels must still read. */
function outOfContract(fields: Record<string, unknown>): ConsentRecord {
  return fields as unknown as ConsentRecord;
}

describe('getConsentLabel', () => {
  it("reads 'Partial' and the purposes granted for a customized choice that grants some of those offered", () => {
    const partial = record({ method: 'custom', grantedPurposes: ['preferences', 'analytics'] });
    expect(getPartiallyGrantedPurposes(partial)).toEqual(['preferences', 'analytics']);
    expect(getConsentLabel(partial)).toBe('Partial · Preferences, Analytics');
    expect(getConsentLabel(record({ method: 'custom', grantedPurposes: ['marketing'] }))).toBe('Partial · Marketing');
  });

  it.each([
    ['Accept All', record({}), 'Accepted'],
    ['a customized choice that grants everything offered', record({ method: 'custom' }), 'Accepted'],
    ['Reject All', record({ consentChoice: 'declined', method: 'reject_all', grantedPurposes: [] }), 'Declined'],
    ['a customized choice that grants nothing', record({ consentChoice: 'declined', method: 'custom', grantedPurposes: [] }), 'Declined'],
    ['a GPC decline', record({ consentChoice: 'declined', method: 'gpc', grantedPurposes: [] }), 'Declined'],
    ['a regional default that grants some purposes', record({ method: 'jurisdiction_default', grantedPurposes: ['analytics'] }), 'Accepted'],
    ['a record without purposes (an older api)', outOfContract({ id: 'c1', websiteId: 'w1', timestamp: '2024-05-01T12:05:00Z', consentChoice: 'accepted' }), 'Accepted'],
    ['an unknown choice', outOfContract({ ...record({ method: 'custom', grantedPurposes: ['analytics'] }), consentChoice: 'maybe' }), 'Unknown'],
  ])('keeps %s as before', (_, given, label) => {
    expect(getPartiallyGrantedPurposes(given)).toBeNull();
    expect(getConsentLabel(given)).toBe(label);
  });

  it('counts only granted purposes that were offered', () => {
    // The api never answers this; a stray purpose must not turn a full grant into a partial one.
    const stray = record({ method: 'custom', offeredPurposes: ['analytics'], grantedPurposes: ['analytics', 'marketing'] });
    expect(getConsentLabel(stray)).toBe('Accepted');
  });
});

describe('consent records list', () => {
  it("shows 'Partial · …' in the Consent column and keeps Accepted and Declined", () => {
    render(
      <ConsentRecordsList
        records={[
          record({ id: 'c3', method: 'custom', grantedPurposes: ['analytics', 'preferences'] }),
          record({ id: 'c2', consentChoice: 'declined', method: 'reject_all', grantedPurposes: [] }),
          record({ id: 'c1' }),
        ]}
        websiteName={() => 'Shop'}
      />,
    );
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]?.textContent)).toEqual(['Partial · Preferences, Analytics', 'Declined', 'Accepted']);
  });
});
