// Usage levels (spec sections 4 and 9): green below 75%, yellow from 75 to under 90, red from 90;
// the upgrade alert appears at 75% of either limit.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { SubscriptionPage } from './subscription-page';
import { getResolutionCostCents, getUsageLevel, getUsagePercent, needsUsageAlert } from './usage';
import { UsageBar } from './usage-bar';

describe('usage levels', () => {
  it.each([
    [0, 'green'],
    [74.9, 'green'],
    [75, 'yellow'],
    [89.9, 'yellow'],
    [90, 'red'],
    [120, 'red'],
  ] as const)('%s%% is %s', (percent, level) => {
    expect(getUsageLevel(percent)).toBe(level);
  });

  it('computes percent of the limit, treating a zero limit as full once anything is used', () => {
    expect(getUsagePercent(3, 4)).toBe(75);
    expect(getUsagePercent(0, 0)).toBe(0);
    expect(getUsagePercent(1, 0)).toBe(100);
  });

  it('alerts at 75% or more on either limit', () => {
    expect(needsUsageAlert(74.9, 10)).toBe(false);
    expect(needsUsageAlert(75, 0)).toBe(true);
    expect(needsUsageAlert(0, 90)).toBe(true);
  });

  it('colours the bar by level', async () => {
    renderInApp(
      <>
        <UsageBar label="Websites" current={1} max={2} />
        <UsageBar label="Consents" current={80} max={100} />
        <UsageBar label="Seats" current={9} max={10} />
      </>,
    );
    expect(await screen.findByRole('progressbar', { name: /Websites/ })).toHaveAttribute('data-level', 'green');
    expect(screen.getByRole('progressbar', { name: /Consents/ })).toHaveAttribute('data-level', 'yellow');
    expect(screen.getByRole('progressbar', { name: /Seats/ })).toHaveAttribute('data-level', 'red');
  });
});

function usageAnswer(currentWebsites: number, currentMonthConsents: number) {
  return {
    user: { maxWebsites: 4, maxConsentsPerMonth: 1000, subscriptionStatus: 'active' },
    subscriptionPlan: { displayName: 'Basic', price: 2900, features: ['4 websites'] },
    currentWebsites,
    currentMonthConsents,
    consentQuotaExceeded: currentMonthConsents > 1000,
  };
}

describe('subscription page', () => {
  describe('when usage is below 75% of both limits', () => {
    it('shows no usage alert', async () => {
      stubFetch({ 'GET /api/subscription/usage': () => jsonResponse(usageAnswer(2, 749)) });
      renderInApp(<SubscriptionPage />);
      expect(await screen.findByText('Basic')).toBeInTheDocument();
      expect(screen.getByText('Active')).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
  });

  describe('when websites reach 75% of the limit', () => {
    it('shows the usage alert with an upgrade link', async () => {
      stubFetch({ 'GET /api/subscription/usage': () => jsonResponse(usageAnswer(3, 0)) });
      renderInApp(<SubscriptionPage />);
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('close to your plan');
      expect(screen.getByRole('link', { name: 'Upgrade Plan' })).toHaveAttribute('href', '/pricing');
    });
  });

  describe('past the monthly consent limit', () => {
    it('says every consent is still recorded and asks to upgrade, instead of the 75% alert', async () => {
      stubFetch({ 'GET /api/subscription/usage': () => jsonResponse(usageAnswer(1, 1250)) });
      renderInApp(<SubscriptionPage />);
      const alert = await screen.findByRole('alert', { name: 'Monthly consent limit exceeded' });
      expect(alert).toHaveTextContent("This month your websites recorded 1,250 consents, more than your plan's 1,000. Every consent is still recorded and counted");
      expect(screen.getAllByRole('alert')).toHaveLength(1);
      expect(screen.getByRole('link', { name: 'Upgrade Plan' })).toHaveAttribute('href', '/pricing');
    });
  });

  describe('when usage cannot be loaded', () => {
    it('says so and links back to the dashboard', async () => {
      stubFetch({ 'GET /api/subscription/usage': () => new Response('down', { status: 500 }) });
      renderInApp(<SubscriptionPage />);
      expect(await screen.findByText('Unable to load subscription data')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    });
  });

  describe('resolutions this month', () => {
    it('costs each resolution at the plan rate, and nothing on a plan that bills none', () => {
      expect(getResolutionCostCents(12, 29)).toBe(348);
      expect(getResolutionCostCents(0, 25)).toBe(0);
      expect(getResolutionCostCents(12, null)).toBeNull();
      expect(getResolutionCostCents(12, undefined)).toBeNull();
    });

    it("shows the count and its cost at the usage's plan rate", async () => {
      stubFetch({
        'GET /api/subscription/usage': () =>
          jsonResponse({ ...usageAnswer(1, 10), subscriptionPlan: { ...usageAnswer(1, 10).subscriptionPlan, perResolutionCents: 29 }, resolutionsThisMonth: 12 }),
      });
      renderInApp(<SubscriptionPage />);
      const line = await screen.findByRole('group', { name: 'Resolutions this month' });
      expect(line).toHaveTextContent('12');
      expect(line).toHaveTextContent('$3.48 at $0.29 per resolution.');
    });

    it("takes the rate from the published plan of the owner's tier when the usage has none", async () => {
      const { requests } = stubFetch({
        'GET /api/subscription/usage': () => jsonResponse({ ...usageAnswer(1, 10), resolutionsThisMonth: 1000 }),
        'GET /api/auth/user': () => jsonResponse({ id: 'u1', email: 'owner@example.com', subscriptionTier: 'pro' }),
        'GET /api/subscription-plans': () =>
          jsonResponse([
            { id: 'basic', name: 'basic', displayName: 'Basic', price: 1900, maxWebsites: 3, maxConsentsPerMonth: 50000, features: [], perResolutionCents: 29 },
            { id: 'pro', name: 'pro', displayName: 'Pro', price: 4900, maxWebsites: 10, maxConsentsPerMonth: 100000, features: [], perResolutionCents: 25 },
          ]),
      });
      renderInApp(<SubscriptionPage />);
      const line = await screen.findByRole('group', { name: 'Resolutions this month' });
      expect(line).toHaveTextContent('1,000');
      expect(await within(line).findByText(/\$250\.00 at \$0\.25 per resolution\./)).toBeInTheDocument();
      expect(requests.map((request) => request.url)).toContain('/api/subscription-plans');
    });

    it('says a plan without a rate bills no resolutions', async () => {
      stubFetch({
        'GET /api/subscription/usage': () =>
          jsonResponse({ ...usageAnswer(1, 10), subscriptionPlan: { ...usageAnswer(1, 10).subscriptionPlan, perResolutionCents: null }, resolutionsThisMonth: 3 }),
      });
      renderInApp(<SubscriptionPage />);
      const line = await screen.findByRole('group', { name: 'Resolutions this month' });
      expect(line).toHaveTextContent('Your plan bills no resolutions.');
      expect(line).not.toHaveTextContent('$');
    });
  });
});
