// The dashboard's "Identified visitors": the count, the rate measured from the api's counts beside
// the landing page's claim, how many of those counted have withdrawn since, and no rate at all while
// nobody allowed identification.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { lastDaysRange } from '../analytics/date-range';
import { IdentifiedVisitorsCard } from './identified-visitors-card';

describe('identified visitors card', () => {
  it('shows the identified count and the measured rate against the claim', async () => {
    const { requests } = stubFetch({
      'GET /api/leads/summary': () => jsonResponse({ identified: 1234, allowed: 5000, withdrawn: 312, rate: 0.2468, resolutionsThisMonth: 87 }),
    });
    renderInApp(<IdentifiedVisitorsCard />);
    const card = await screen.findByRole('region', { name: 'Identified visitors' });
    expect(await within(card).findByText('1,234')).toBeInTheDocument();
    expect(within(card).getByText('24.7%')).toBeInTheDocument();
    expect(within(card).getByText('Your rate: 24.7% · the landing page says up to 40%')).toBeInTheDocument();
    expect(within(card).getByText('1,234 of 5,000 visitors who allowed identification were identified. 312 of those 5,000 have withdrawn it since.')).toBeInTheDocument();
    expect(within(card).getByText('87')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'View leads' })).toHaveAttribute('href', '/leads');
    // The last 30 UTC days, today included.
    const range = lastDaysRange(30);
    expect(requests[0]?.url).toBe(`/api/leads/summary?from=${range.startDate}&to=${range.endDate}`);
  });

  it('shows no rate, not the claim as one, while nobody allowed identification', async () => {
    stubFetch({ 'GET /api/leads/summary': () => jsonResponse({ identified: 0, allowed: 0, withdrawn: 0, rate: null, resolutionsThisMonth: 0 }) });
    renderInApp(<IdentifiedVisitorsCard />);
    const card = await screen.findByRole('region', { name: 'Identified visitors' });
    expect(await within(card).findByText('—')).toBeInTheDocument();
    expect(within(card).getAllByText('0')).toHaveLength(2);
    expect(within(card).getByText('No measured rate yet: no visitor has allowed identification · the landing page says up to 40%')).toBeInTheDocument();
    expect(within(card).queryByText(/40\.0%/)).not.toBeInTheDocument();
    expect(within(card).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(card).queryByText(/withdrawn/)).not.toBeInTheDocument();
  });

  it("reads 'No data available' when the summary cannot be loaded", async () => {
    stubFetch({ 'GET /api/leads/summary': () => new Response('boom', { status: 500 }) });
    renderInApp(<IdentifiedVisitorsCard />);
    expect(await screen.findByText('No data available')).toBeInTheDocument();
  });
});
