// The pricing toggle (spec sections 4 and 9): monthly shows the plan price; annual shows ten times it
// with the savings against twelve months; pro is 'Most Popular'; only the first four features show.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { formatDataTypes, formatPerResolution, getAnnualSavingsCents, getPlanPriceCents } from './pricing';
import { PricingPage } from './pricing-page';

const plans = [
  {
    id: 'p-pro',
    name: 'pro',
    displayName: 'Pro',
    description: 'For growing teams',
    price: 4900,
    maxWebsites: 10,
    maxConsentsPerMonth: 100000,
    features: ['One', 'Two', 'Three', 'Four', 'Five'],
    perResolutionCents: 25,
    dataTypes: ['b2c', 'b2b'],
  },
  {
    id: 'p-free',
    name: 'free',
    displayName: 'Free',
    price: 0,
    maxWebsites: 1,
    maxConsentsPerMonth: 15,
    features: ['Basic banner'],
    perResolutionCents: null,
    dataTypes: ['b2c'],
  },
];

describe('pricing rules', () => {
  it('prices a year as ten months and saves two', () => {
    expect(getPlanPriceCents(2900, 'monthly')).toBe(2900);
    expect(getPlanPriceCents(2900, 'annual')).toBe(29000);
    expect(getAnnualSavingsCents(2900)).toBe(5800);
  });
});

describe('plan catalogue figures', () => {
  it('quotes per-resolution rates in dollars with cents, and none for a plan that bills none', () => {
    expect(formatPerResolution(29)).toBe('$0.29 per resolution');
    expect(formatPerResolution(20)).toBe('$0.20 per resolution');
    expect(formatPerResolution(100)).toBe('$1.00 per resolution');
    expect(formatPerResolution(null)).toBeNull();
    expect(formatPerResolution(undefined)).toBeNull();
  });

  it('names data types B2B first, as the spec writes them', () => {
    expect(formatDataTypes(['b2c'])).toBe('B2C');
    expect(formatDataTypes(['b2c', 'b2b'])).toBe('B2B and B2C');
    expect(formatDataTypes([])).toBeNull();
    expect(formatDataTypes(undefined)).toBeNull();
  });
});

describe('pricing page', () => {
  it('starts monthly and switches to annual prices with savings', async () => {
    const { requests } = stubFetch({ 'GET /api/subscription-plans': () => jsonResponse(plans) });
    renderInApp(<PricingPage />);

    const pro = await screen.findByLabelText('Pro');
    expect(within(pro).getByTestId('plan-price')).toHaveTextContent('$49');
    expect(within(pro).getByText('/month')).toBeInTheDocument();
    expect(within(pro).queryByText(/Save/)).not.toBeInTheDocument();
    expect(requests.map((request) => request.url)).toContain('/api/subscription-plans');

    await userEvent.setup().click(screen.getByRole('switch', { name: 'Annual billing' }));

    expect(within(pro).getByTestId('plan-price')).toHaveTextContent('$490');
    expect(within(pro).getByText('/year')).toBeInTheDocument();
    expect(within(pro).getByText('Save $98 per year')).toBeInTheDocument();
    // A free plan has nothing to save.
    const free = screen.getByLabelText('Free');
    expect(within(free).queryByText(/Save/)).not.toBeInTheDocument();
  });

  it("marks pro 'Most Popular' and shows only the first four features", async () => {
    stubFetch({ 'GET /api/subscription-plans': () => jsonResponse(plans) });
    renderInApp(<PricingPage />);
    const pro = await screen.findByLabelText('Pro');
    expect(within(pro).getByText('Most Popular')).toBeInTheDocument();
    expect(within(screen.getByLabelText('Free')).queryByText('Most Popular')).not.toBeInTheDocument();
    const features = within(pro).getByRole('list', { name: 'Pro features' });
    expect(within(features).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['One', 'Two', 'Three', 'Four']);
  });

  it('says that upgrades apply immediately and downgrades at the next billing cycle', async () => {
    stubFetch({ 'GET /api/subscription-plans': () => jsonResponse(plans) });
    renderInApp(<PricingPage />);
    expect(await screen.findByText(/Upgrades take effect immediately/)).toHaveTextContent(
      'Downgrades take effect at the next billing cycle',
    );
  });

  it('shows the per-resolution rate and data types the plan catalogue gives, and nothing of its own', async () => {
    stubFetch({
      'GET /api/subscription-plans': () =>
        jsonResponse([...plans, { id: 'p-x', name: 'basic', displayName: 'Basic', price: 1900, maxWebsites: 3, maxConsentsPerMonth: 50000, features: [] }]),
    });
    renderInApp(<PricingPage />);
    const pro = await screen.findByLabelText('Pro');
    expect(within(pro).getByText('$0.25 per resolution')).toBeInTheDocument();
    expect(within(pro).getByText('Data types: B2B and B2C')).toBeInTheDocument();
    const free = screen.getByLabelText('Free');
    expect(within(free).getByText('Data types: B2C')).toBeInTheDocument();
    expect(within(free).queryByText(/per resolution/)).not.toBeInTheDocument();
    // A plan the catalogue gives no rate or data types gets none made up (basic's $0.29 was once hard-coded).
    const basic = screen.getByLabelText('Basic');
    expect(within(basic).queryByText(/per resolution/)).not.toBeInTheDocument();
    expect(within(basic).queryByText(/Data types/)).not.toBeInTheDocument();
  });
});
