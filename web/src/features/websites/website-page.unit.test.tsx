// A website's page: the header (name, domain, status, switcher), a tab bar of links where each tab is
// its own URL and the open one is aria-current, the Overview's next steps linking to the tab where
// each is done, and a not-found state for a website the viewer cannot see. Rendered as the app is,
// from its real route tree, with the api's answers stubbed.
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { createAppRouter } from '../../router';
import { jsonResponse, stubFetch } from '../../test/render';
import { getNextSteps } from './website-overview-tab';
import { websiteTabs } from './website-tabs';

vi.mock('../analytics/doughnut-chart', () => ({ default: () => null }));
vi.mock('../analytics/traffic-trend-chart', () => ({ default: () => null }));

const owner = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: null, subscriptionTier: 'free', subscriptionStatus: 'active', maxWebsites: 3, maxConsentsPerMonth: 10_000, isActive: true };
const websites = [
  { id: 'w1', name: 'Shop', domain: 'shop.example', isActive: true, embedCode: 'emb_1', createdAt: '2024-05-01T10:00:00Z' },
  { id: 'w2', name: 'Blog', domain: 'blog.example', isActive: false, embedCode: 'emb_2', createdAt: '2024-05-02T10:00:00Z' },
];
const settings = {
  retentionMonths: 24,
  ipAddressMode: 'truncated',
  bannerPosition: 'bottom',
  bannerTheme: 'light',
  policyVersion: '1',
  privacyPolicyUrl: null,
  purposes: ['preferences', 'analytics', 'marketing'],
  services: [],
  consentLifetimeMonths: 12,
  scanIntervalDays: 7,
};
const record = (id: string, websiteId: string, consentChoice: string, timestamp: string) => ({
  id,
  websiteId,
  consentChoice,
  timestamp,
  country: 'DE',
  city: 'Berlin',
  ipAddress: '203.0.113.0',
});

function stubApi({ totalConsents = 1520 }: { totalConsents?: number } = {}) {
  return stubFetch({
    'GET /api/auth/user': () => jsonResponse(owner),
    'GET /api/admin/me': () => jsonResponse({ error: { code: 'UNAUTHENTICATED', message: 'Sign in' } }, 401),
    'GET /api/websites/w1/settings': () => jsonResponse(settings),
    'GET /api/websites/w1/scans': () => jsonResponse([]),
    'GET /api/websites/w1/webhooks': () => jsonResponse([]),
    'GET /api/websites': (request) => (request.url === '/api/websites' ? jsonResponse(websites) : new Response('Not Found', { status: 404 })),
    'GET /api/stats/websites': () =>
      jsonResponse([
        { website: { id: 'w1', domain: 'shop.example' }, totalConsents, consentRate: 68.42 },
        { website: { id: 'w2', domain: 'blog.example' }, totalConsents: 0, consentRate: 0 },
      ]),
    'GET /api/consents?limit=1000': () =>
      jsonResponse([
        record('c3', 'w1', 'declined', '2024-05-03T12:00:00Z'),
        record('c2', 'w2', 'accepted', '2024-05-02T12:00:00Z'),
        record('c1', 'w1', 'accepted', '2024-05-01T12:00:00Z'),
      ]),
    'GET /api/recommendations/website/w1': () =>
      jsonResponse({ websiteId: 'w1', consentRate: 68.42, totalConsents, mobileConsentRate: 60, desktopConsentRate: 70, recommendations: [] }),
    'GET /api/exports': () => jsonResponse([]),
  });
}

function renderApp(url: string) {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [url] }));
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const tabBar = () => screen.getByRole('navigation', { name: 'Website sections' });

describe("a website's page", () => {
  it('shows the website in its header and opens on the tab its URL names', async () => {
    stubApi();
    renderApp('/websites/w1/consent');
    expect(await screen.findByRole('heading', { level: 1, name: /Shop/ })).toHaveTextContent('ShopActive');
    expect(screen.getByText('shop.example')).toBeInTheDocument();
    expect(within(tabBar()).getByRole('link', { name: 'Consent' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabBar()).getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current');
    expect(await screen.findByRole('heading', { level: 2, name: 'Consent' })).toBeInTheDocument();
    // Its own records only, and its own figures.
    expect(await screen.findByLabelText('Total Consents: 1,520')).toBeInTheDocument();
    const table = screen.getByRole('region', { name: 'Recent Consent Records' });
    const rows = within(within(table).getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual(['Declined', 'Accepted']);
    // Export is a section of the Consent tab, this website chosen first.
    expect(screen.getByRole('heading', { level: 2, name: 'Export Data' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Website' })).toHaveTextContent('Shop (shop.example)');
  });

  it('has a link per tab, each to its own URL, and follows a click to it', async () => {
    stubApi();
    const router = renderApp('/websites/w1/overview');
    await screen.findByRole('heading', { level: 2, name: 'Overview' });
    const links = within(tabBar()).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual(
      websiteTabs.map((tab) => [tab.label, `/websites/w1/${tab.slug}`]),
    );
    const user = userEvent.setup();
    for (const tab of websiteTabs.slice(1)) {
      await user.click(within(tabBar()).getByRole('link', { name: tab.label }));
      await waitFor(() => expect(router.state.location.pathname).toBe(`/websites/w1/${tab.slug}`));
      expect(await screen.findByRole('heading', { level: 2, name: tab.label })).toBeInTheDocument();
      expect(within(tabBar()).getByRole('link', { name: tab.label })).toHaveAttribute('aria-current', 'page');
      await waitFor(() => expect(document.title).toBe(`${tab.label} · Website · Consentry`));
    }
  });

  it('switches to another website on the same tab', async () => {
    stubApi();
    const router = renderApp('/websites/w1/scan');
    await screen.findByRole('heading', { level: 2, name: 'Cookie scan' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Switch website' }));
    await user.click(await screen.findByRole('option', { name: 'Blog (blog.example)' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/websites/w2/scan'));
    expect(await screen.findByRole('heading', { level: 1, name: /Blog/ })).toHaveTextContent('BlogInactive');
  });

  it('says a website that is not the viewer’s was not found, with the way back to Websites', async () => {
    stubApi();
    const router = renderApp('/websites/someone-elses/overview');
    expect(await screen.findByRole('heading', { level: 1, name: 'Website not found' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Website sections' })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back to Websites' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/websites'));
  });

  describe('the Overview tab', () => {
    it('sends a website with no consent yet to Installation, unscanned to Cookie scan, without a policy to Banner', async () => {
      stubApi({ totalConsents: 0 });
      const router = renderApp('/websites/w1/overview');
      const nextSteps = await screen.findByRole('region', { name: 'Next steps' });
      expect(await within(nextSteps).findByRole('link', { name: 'Install the banner' })).toHaveAttribute('href', '/websites/w1/installation');
      expect(await within(nextSteps).findByRole('link', { name: 'Run a cookie scan' })).toHaveAttribute('href', '/websites/w1/scan');
      expect(await within(nextSteps).findByRole('link', { name: 'Link your privacy policy' })).toHaveAttribute('href', '/websites/w1/banner');
      // The key figures and recommendations of the last 30 days follow.
      expect(await screen.findByLabelText('Total Consents: 0')).toBeInTheDocument();
      expect(await screen.findByText('No recommendations available')).toBeInTheDocument();
      await act(async () => {
        await userEvent.setup().click(within(nextSteps).getByRole('link', { name: 'Install the banner' }));
      });
      await waitFor(() => expect(router.state.location.pathname).toBe('/websites/w1/installation'));
    });
  });
});

describe('getNextSteps', () => {
  it('claims nothing from data it does not have', () => {
    expect(getNextSteps({ website: { isActive: true }, totalConsents: undefined, scanCount: undefined, privacyPolicyUrl: undefined })).toEqual([]);
  });

  it('has nothing to do for a website that records consent, is scanned and links its policy', () => {
    expect(getNextSteps({ website: { isActive: true }, totalConsents: 3, scanCount: 1, privacyPolicyUrl: 'https://shop.example/privacy' })).toEqual([]);
  });

  it('puts installing first', () => {
    const steps = getNextSteps({ website: { isActive: true }, totalConsents: 0, scanCount: 0, privacyPolicyUrl: null });
    expect(steps.map((step) => step.tab)).toEqual(['installation', 'scan', 'banner']);
  });
});
