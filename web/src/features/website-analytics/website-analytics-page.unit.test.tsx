// The Website Analytics screen: a card per website with its consent figures; a website's detail with
// the tabs Consent Data (its own latest records only), Traffic Analytics and Settings. Which website
// and tab are open is the route's search, so the page only asks to navigate.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { parseWebsiteAnalyticsSearch } from './search';
import { WebsiteAnalyticsPage } from './website-analytics-page';

vi.mock('../analytics/doughnut-chart', () => ({ default: () => null }));
vi.mock('../analytics/traffic-trend-chart', () => ({
  default: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

const websites = [
  { id: 'w1', name: 'Shop', domain: 'shop.example', isActive: true, embedCode: 'emb_1', createdAt: '2024-05-01T10:00:00Z' },
  { id: 'w2', name: 'Blog', domain: 'blog.example', isActive: false, embedCode: 'emb_2', createdAt: '2024-05-02T10:00:00Z' },
];

const record = (id: string, websiteId: string, consentChoice: string, timestamp: string) => ({
  id,
  websiteId,
  consentChoice,
  timestamp,
  country: 'DE',
  city: 'Berlin',
  ipAddress: '203.0.113.0',
});

function stubApi() {
  return stubFetch({
    'GET /api/websites/w1/settings': () =>
      jsonResponse({
        retentionMonths: 24,
        ipAddressMode: 'truncated',
        bannerPosition: 'bottom',
        bannerTheme: 'light',
        policyVersion: '1',
        privacyPolicyUrl: null,
        purposes: ['preferences', 'analytics', 'marketing'],
        services: [],
        consentLifetimeMonths: 12,
      }),
    'GET /api/websites/w1/scans': () => jsonResponse([]),
    'GET /api/websites/w1/webhooks': () => jsonResponse([]),
    'GET /api/websites': () => jsonResponse(websites),
    'GET /api/stats/websites': () =>
      jsonResponse([
        { website: { id: 'w1', domain: 'shop.example' }, totalConsents: 1520, consentRate: 68.42 },
        { website: { id: 'w2', domain: 'blog.example' }, totalConsents: 0, consentRate: 0 },
      ]),
    'GET /api/consents?limit=1000': () =>
      jsonResponse([
        record('c3', 'w1', 'declined', '2024-05-03T12:00:00Z'),
        record('c2', 'w2', 'accepted', '2024-05-02T12:00:00Z'),
        record('c1', 'w1', 'accepted', '2024-05-01T12:00:00Z'),
      ]),
    'GET /api/stats/purposes?websiteId=w1': () =>
      jsonResponse({
        choices: 2,
        byMethod: { accept_all: 0, reject_all: 1, custom: 1, gpc: 0, jurisdiction_default: 0 },
        purposes: [
          { purpose: 'preferences', offered: 2, granted: 0, acceptanceRate: 0 },
          { purpose: 'analytics', offered: 2, granted: 1, acceptanceRate: 50 },
          { purpose: 'marketing', offered: 2, granted: 0, acceptanceRate: 0 },
          { purpose: 'identification', offered: 0, granted: 0, acceptanceRate: null },
        ],
      }),
    // Before the report's own path, which it starts with: the Traffic tab's visitors per day.
    'GET /api/analytics/website/w1/daily': (request) => {
      const query = new URL(request.url, 'http://localhost').searchParams;
      const start = Date.parse(query.get('startDate')!);
      const length = (Date.parse(query.get('endDate')!) - start) / 86_400_000 + 1;
      const days = Array.from({ length }, (_, index) => ({
        day: new Date(start + index * 86_400_000).toISOString().slice(0, 10),
        uniqueVisitors: index === length - 1 ? 15 : 0,
        pageviews: index === length - 1 ? 35 : 0,
        visits: index === length - 1 ? 15 : 0,
      }));
      return jsonResponse({ days });
    },
    'GET /api/analytics/website/w1': () =>
      jsonResponse({
        uniqueVisitors: 15,
        totalPageviews: 35,
        pagesPerVisit: 2.33,
        avgTimeOnSite: 70,
        bounceRate: 33.3,
        topPages: [{ url: '/', views: 15 }],
        topReferrers: [{ domain: 'Direct', visits: 15 }],
        mobileEngagement: { locationMapViews: 0, hoursOperationViews: 0, contactFormSubmissions: 0, tapToCallActions: 0 },
        deviceBreakdown: { desktop: 15 },
      }),
  });
}

describe('website analytics page', () => {
  it('shows a card per website with its consent figures and opens one', async () => {
    stubApi();
    const onNavigate = vi.fn();
    renderInApp(<WebsiteAnalyticsPage onNavigate={onNavigate} />);
    const shop = await screen.findByRole('article', { name: 'Shop' });
    expect(await within(shop).findByText('1,520')).toBeInTheDocument();
    expect(within(shop).getByText('68.4%')).toBeInTheDocument();
    expect(within(shop).getByText('Active')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Blog' })).getByText('Inactive')).toBeInTheDocument();

    await userEvent.setup().click(within(shop).getByRole('button', { name: 'View analytics of Shop' }));
    expect(onNavigate).toHaveBeenCalledWith({ website: 'w1' });
  });

  it("shows a website's own latest consent records under Consent Data", async () => {
    stubApi();
    renderInApp(<WebsiteAnalyticsPage websiteId="w1" onNavigate={vi.fn()} />);
    expect(await screen.findByRole('heading', { name: 'Shop', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Consent Data' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByLabelText('Total Consents: 1,520')).toBeInTheDocument();
    expect(screen.getByLabelText('Consent Rate: 68.4%')).toBeInTheDocument();
    // Each figure names what it counts, and says more on focus.
    expect(screen.getByText('choices, all time')).toBeInTheDocument();
    expect(screen.getByText('of choices allowed a purpose')).toBeInTheDocument();
    screen.getByRole('button', { name: 'What Total Consents counts' }).focus();
    expect((await screen.findByRole('tooltip')).textContent).toMatch(/so this counts choices, not people/);
    const table = screen.getByRole('region', { name: 'Recent Consent Records' });
    const rows = within(within(table).getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual(['Declined', 'Accepted']);
  });

  it("shows the website's own consent by purpose under Consent Data", async () => {
    const { requests } = stubApi();
    renderInApp(<WebsiteAnalyticsPage websiteId="w1" onNavigate={vi.fn()} />);
    const card = await screen.findByRole('region', { name: 'Consent by purpose' });
    expect(await within(card).findByText('Customized')).toBeInTheDocument();
    expect(within(within(card).getByRole('region', { name: 'Acceptance rate' })).getAllByRole('listitem')[1]).toHaveTextContent('Analytics50.0% · 1 of 2');
    expect(requests.map((request) => request.url)).toContain('/api/stats/purposes?websiteId=w1');
  });

  it('asks the route to switch tabs', async () => {
    stubApi();
    const onNavigate = vi.fn();
    renderInApp(<WebsiteAnalyticsPage websiteId="w1" onNavigate={onNavigate} />);
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'Traffic Analytics' }));
    expect(onNavigate).toHaveBeenCalledWith({ website: 'w1', tab: 'traffic' });
  });

  it('renders the Traffic Analytics tab when the route says so', async () => {
    stubApi();
    renderInApp(<WebsiteAnalyticsPage websiteId="w1" tab="traffic" onNavigate={vi.fn()} />);
    expect(await screen.findByLabelText('Unique Visitors: 15')).toBeInTheDocument();
    expect(screen.getByLabelText('Avg. Time on Site: 1m 10s')).toBeInTheDocument();
    // Visitors and page views per day of the tab's range (by default the last 30 days).
    const trend = screen.getByRole('region', { name: 'Visitors and Page Views' });
    expect(await within(trend).findByRole('img', { name: /35 page views in total; busiest day .* with 15 visitors and 35 page views$/ })).toBeInTheDocument();
    expect(within(within(trend).getByRole('table')).getAllByRole('row')).toHaveLength(31);
  });

  it('renders the Settings tab with every setting', async () => {
    stubApi();
    renderInApp(<WebsiteAnalyticsPage websiteId="w1" tab="settings" onNavigate={vi.fn()} />);
    expect(await screen.findByLabelText('Retention period (months)')).toHaveValue('24');
    expect(screen.getByLabelText('Privacy policy URL')).toHaveValue('');
    expect(screen.getByLabelText('Policy version')).toHaveValue('1');
  });

  it('loads the Cookie scan tab when the route says so', async () => {
    const { requests } = stubApi();
    renderInApp(<WebsiteAnalyticsPage websiteId="w1" tab="scan" onNavigate={vi.fn()} />);
    expect(await screen.findByRole('tab', { name: 'Cookie scan' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('region', { name: 'Cookie scan' })).toBeInTheDocument();
    expect(await screen.findByText('This website has not been scanned yet.')).toBeInTheDocument();
    expect(requests.map((request) => request.url)).toContain('/api/websites/w1/scans');
  });

  it('loads the Webhooks tab when the route says so', async () => {
    const { requests } = stubApi();
    renderInApp(<WebsiteAnalyticsPage websiteId="w1" tab="webhooks" onNavigate={vi.fn()} />);
    expect(await screen.findByRole('tab', { name: 'Webhooks' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('No webhook endpoints yet')).toBeInTheDocument();
    expect(requests.map((request) => request.url)).toContain('/api/websites/w1/webhooks');
  });

  it("says 'No websites found' for a website that is not there", async () => {
    stubApi();
    const onNavigate = vi.fn();
    renderInApp(<WebsiteAnalyticsPage websiteId="gone" onNavigate={onNavigate} />);
    expect(await screen.findByText('No websites found')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'All websites' }));
    expect(onNavigate).toHaveBeenCalledWith({});
  });
});

describe('parseWebsiteAnalyticsSearch', () => {
  it('keeps a website and a known tab, and drops anything else', () => {
    expect(parseWebsiteAnalyticsSearch({ website: 'w1', tab: 'settings' })).toEqual({ website: 'w1', tab: 'settings' });
    expect(parseWebsiteAnalyticsSearch({ website: 'w1', tab: 'scan' })).toEqual({ website: 'w1', tab: 'scan' });
    expect(parseWebsiteAnalyticsSearch({ website: 'w1', tab: 'webhooks' })).toEqual({ website: 'w1', tab: 'webhooks' });
    expect(parseWebsiteAnalyticsSearch({ website: 'w1', tab: 'nope' })).toEqual({ website: 'w1' });
    expect(parseWebsiteAnalyticsSearch({ tab: 'settings' })).toEqual({});
    expect(parseWebsiteAnalyticsSearch({ website: 42 })).toEqual({});
  });
});
