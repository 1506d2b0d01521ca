// The 'Consent by purpose' card: acceptance per purpose and the split by how visitors chose, over
// every website (the Dashboard) or one (a website's Consent Data tab).
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithToaster, stubFetch } from '../../test/render';
import { PurposeStatsCard } from './purpose-stats-card';

const stats = {
  choices: 5,
  byMethod: { accept_all: 1, reject_all: 1, custom: 2, gpc: 1, jurisdiction_default: 0 },
  purposes: [
    { purpose: 'preferences', offered: 0, granted: 0, acceptanceRate: null },
    { purpose: 'analytics', offered: 5, granted: 3, acceptanceRate: 60 },
    { purpose: 'marketing', offered: 5, granted: 1, acceptanceRate: 20 },
    { purpose: 'identification', offered: 5, granted: 2, acceptanceRate: 40 },
  ],
};

describe('Consent by purpose', () => {
  it('shows the acceptance rate of each purpose and how visitors chose, GPC included when used', async () => {
    const { requests } = stubFetch({ 'GET /api/stats/purposes': () => jsonResponse(stats) });
    renderWithToaster(<PurposeStatsCard description="Across your websites" />);
    const card = screen.getByRole('region', { name: 'Consent by purpose' });

    const rates = within(await within(card).findByRole('region', { name: 'Acceptance rate' })).getAllByRole('listitem');
    expect(rates.map((item) => item.textContent)).toEqual([
      'PreferencesNot asked',
      'Analytics60.0% · 3 of 5',
      'Marketing20.0% · 1 of 5',
      'Identification40.0% · 2 of 5',
    ]);
    const split = within(card).getByRole('region', { name: 'How visitors chose' });
    expect(within(split).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Accept All1 · 20.0%',
      'Reject All1 · 20.0%',
      'Customized2 · 40.0%',
      'GPC1 · 20.0%',
    ]);
    expect(within(split).getByRole('img', { name: '5 choices: Accept All 1, Reject All 1, Customized 2, GPC 1' })).toBeInTheDocument();
    // Without a website: every website of the viewer, all time.
    expect(requests.map((request) => request.url)).toEqual(['/api/stats/purposes']);
  });

  it("asks for one website's figures, and says 'No data available' before any choice", async () => {
    const empty = { choices: 0, byMethod: { accept_all: 0, reject_all: 0, custom: 0, gpc: 0, jurisdiction_default: 0 }, purposes: [] };
    const { requests } = stubFetch({ 'GET /api/stats/purposes': () => jsonResponse(empty) });
    renderWithToaster(<PurposeStatsCard websiteId="w1" description="On this website" />);
    expect(await screen.findByText('No data available')).toBeInTheDocument();
    expect(requests.map((request) => request.url)).toEqual(['/api/stats/purposes?websiteId=w1']);
  });

  it("says 'No data available' when the figures cannot be loaded", async () => {
    stubFetch({ 'GET /api/stats/purposes': () => jsonResponse({ error: { code: 'INTERNAL', message: 'Internal error' } }, 500) });
    renderWithToaster(<PurposeStatsCard description="Across your websites" />);
    expect(await screen.findByText('No data available')).toBeInTheDocument();
  });
});
