// The Analytics & Consent screen's state machine (spec sections 4, 5 and 9): empty until a website is
// chosen (and nothing asked of the analytics api before), then that website's figures for the last
// 30 days; a quick range or new dates ask again, and a range the api would refuse is not sent. The
// visitors and page views per day follow the same picker, with a text alternative and an empty state.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderInApp, stubFetch, type StubbedRequest } from '../../test/render';
import { AnalyticsPage } from './analytics-page';
import { lastDaysRange } from './date-range';

// jsdom has no canvas; the chart's numbers are listed beside it anyway.
vi.mock('./doughnut-chart', () => ({ default: () => null }));
vi.mock('./traffic-trend-chart', () => ({
  default: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

const websites = [
  { id: 'w1', name: 'Shop', domain: 'shop.example', isActive: true, embedCode: 'emb_1', createdAt: '2024-05-01T10:00:00Z' },
  { id: 'w2', name: 'Blog', domain: 'blog.example', isActive: true, embedCode: 'emb_2', createdAt: '2024-05-02T10:00:00Z' },
];

const analytics = {
  uniqueVisitors: 1234,
  totalPageviews: 2900,
  pagesPerVisit: 2.35,
  avgTimeOnSite: 155,
  bounceRate: 42.5,
  topPages: [
    { url: '/', views: 1200 },
    { url: '/blog/2024/how-we-bake-our-sourdough-every-single-morning', views: 300 },
    ...Array.from({ length: 8 }, (_, index) => ({ url: `/page-${index}`, views: 100 - index })),
  ],
  topReferrers: [
    { domain: 'google', visits: 500 },
    { domain: 'Direct', visits: 400 },
    { domain: 'news.ycombinator.com', visits: 80 },
    { domain: 'duckduckgo', visits: 20 },
  ],
  mobileEngagement: { locationMapViews: 12, hoursOperationViews: 7, contactFormSubmissions: 3, tapToCallActions: 1 },
  deviceBreakdown: { mobile: 400, desktop: 800, tablet: 34 },
};

const analyticsRequests = (requests: StubbedRequest[]) =>
  requests.filter((request) => request.url.startsWith('/api/analytics/') && !request.url.includes('/daily?'));
const dailyRequests = (requests: StubbedRequest[]) => requests.filter((request) => request.url.startsWith('/api/analytics/website/w1/daily?'));

/** Every day of the asked range, as the api answers: traffic on some days, zeros on the others. */
function dailyAnswer(request: StubbedRequest, traffic: (index: number) => { uniqueVisitors: number; pageviews: number }) {
  const query = new URL(request.url, 'http://localhost').searchParams;
  const [start, end] = [Date.parse(query.get('startDate')!), Date.parse(query.get('endDate')!)];
  const days = Array.from({ length: (end - start) / 86_400_000 + 1 }, (_, index) => ({
    day: new Date(start + index * 86_400_000).toISOString().slice(0, 10),
    visits: 0,
    ...traffic(index),
  }));
  return jsonResponse({ days });
}

/** 2,900 page views over the last days of the range, as the report's total says; the busiest day last. */
const someTraffic = (request: StubbedRequest) =>
  dailyAnswer(request, (index) => {
    const length = new URL(request.url, 'http://localhost').searchParams.get('startDate') === lastDaysRange(7).startDate ? 7 : 30;
    const fromEnd = length - 1 - index;
    return fromEnd === 0 ? { uniqueVisitors: 700, pageviews: 1400 } : fromEnd === 1 ? { uniqueVisitors: 600, pageviews: 1500 } : { uniqueVisitors: 0, pageviews: 0 };
  });

function stubApi(websiteList: unknown[] = websites, daily: (request: StubbedRequest) => Response = someTraffic) {
  return stubFetch({
    'GET /api/websites': () => jsonResponse(websiteList),
    'GET /api/stats/websites': () => jsonResponse([{ website: { id: 'w1', domain: 'shop.example' }, totalConsents: 640, consentRate: 71.25 }]),
    // Before the report's own path, which it starts with.
    'GET /api/analytics/website/w1/daily': daily,
    'GET /api/analytics/website/w1': () => jsonResponse(analytics),
  });
}

async function chooseWebsite(name: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('combobox', { name: 'Website' }));
  await user.click(await screen.findByRole('option', { name: name }));
  return user;
}

describe('analytics page', () => {
  describe('before a website is chosen', () => {
    it('shows the empty state and asks nothing of the analytics api', async () => {
      const { requests } = stubApi();
      renderInApp(<AnalyticsPage />);
      expect(await screen.findByText('Select a website')).toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: 'Website' })).toHaveTextContent('Select a website');
      expect(analyticsRequests(requests)).toEqual([]);
      expect(screen.queryByLabelText(/^Unique Visitors:/)).not.toBeInTheDocument();
    });

    it("says 'No websites added yet' when there are none", async () => {
      stubApi([]);
      renderInApp(<AnalyticsPage />);
      expect(await screen.findByText('No websites added yet')).toBeInTheDocument();
    });
  });

  describe('when a website is chosen', () => {
    it('shows its figures for the last 30 days, formatted per spec section 9', async () => {
      const { requests } = stubApi();
      renderInApp(<AnalyticsPage />);
      await chooseWebsite('Shop (shop.example)');

      expect(await screen.findByLabelText('Unique Visitors: 1,234')).toBeInTheDocument();
      const { startDate, endDate } = lastDaysRange(30);
      expect(analyticsRequests(requests)).toEqual([
        expect.objectContaining({ url: `/api/analytics/website/w1?startDate=${startDate}&endDate=${endDate}`, credentials: 'include' }),
      ]);
      expect(screen.getByLabelText('Total Pageviews: 2,900')).toBeInTheDocument();
      expect(screen.getByLabelText('Pages per Visit: 2.35')).toBeInTheDocument();
      expect(screen.getByLabelText('Avg. Time on Site: 2m 35s')).toBeInTheDocument();
      expect(screen.getByLabelText('Bounce Rate: 42.5%')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: '640 consents, 71.3% accepted' })).toBeInTheDocument();

      const topPages = screen.getByRole('region', { name: 'Top Pages' });
      expect(within(topPages).getAllByRole('listitem')).toHaveLength(8);
      expect(within(topPages).getByText('/blog/2024/how-we-bake-our-sourdough-eve…')).toHaveAttribute(
        'title',
        '/blog/2024/how-we-bake-our-sourdough-every-single-morning',
      );
      expect(within(topPages).getByText('1,200 views')).toBeInTheDocument();

      const sources = screen.getByRole('region', { name: 'Traffic Sources' });
      // Grouped: Direct, search engines (Google + DuckDuckGo), other websites; then each referrer.
      expect(within(sources).getByText('Search engines').parentElement?.nextSibling).toHaveTextContent('520 visits · 42.1%');
      expect(within(sources).getByText('Google')).toBeInTheDocument();
      expect(within(sources).getByText('DuckDuckGo')).toBeInTheDocument();
      expect(within(sources).getByText('Other referrers')).toBeInTheDocument();

      const devices = screen.getByRole('region', { name: 'Devices' });
      expect(within(devices).getByText('Visits by device, 1,234 in total')).toBeInTheDocument();
      expect(within(devices).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
        'Desktop800 visits · 64.8%',
        'Mobile400 visits · 32.4%',
        'Tablet34 visits · 2.8%',
      ]);

      const engagement = screen.getByRole('region', { name: 'Mobile Engagement' });
      expect(within(engagement).getByLabelText('Location map views: 12')).toBeInTheDocument();
      expect(within(engagement).getByLabelText('Opening hours views: 7')).toBeInTheDocument();
      expect(within(engagement).getByLabelText('Contact form submissions: 3')).toBeInTheDocument();
      expect(within(engagement).getByLabelText('Tap-to-call actions: 1')).toBeInTheDocument();
    });

    it('asks again for a quick range or new dates, and not for a range the api would refuse', async () => {
      const { requests } = stubApi();
      renderInApp(<AnalyticsPage />);
      const user = await chooseWebsite('Shop (shop.example)');
      await screen.findByLabelText('Unique Visitors: 1,234');
      expect(screen.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');

      await user.click(screen.getByRole('button', { name: '7 days' }));
      const week = lastDaysRange(7);
      expect(analyticsRequests(requests).at(-1)?.url).toBe(`/api/analytics/website/w1?startDate=${week.startDate}&endDate=${week.endDate}`);
      expect(screen.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
      await screen.findByLabelText('Unique Visitors: 1,234');

      const asked = analyticsRequests(requests).length;
      fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2099-01-01' } });
      expect(await screen.findByRole('alert')).toHaveTextContent('The start date must not be after the end date.');
      expect(analyticsRequests(requests)).toHaveLength(asked);

      fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2024-05-01' } });
      fireEvent.change(screen.getByLabelText('End date'), { target: { value: '2024-05-31' } });
      expect(analyticsRequests(requests).at(-1)?.url).toBe('/api/analytics/website/w1?startDate=2024-05-01&endDate=2024-05-31');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'false');
    });

    it('draws visitors and page views per day of the same range, with every figure as text', async () => {
      const { requests } = stubApi();
      renderInApp(<AnalyticsPage />);
      await chooseWebsite('Shop (shop.example)');
      const trend = await screen.findByRole('region', { name: 'Visitors and Page Views' });
      const { startDate, endDate } = lastDaysRange(30);
      expect(dailyRequests(requests).map((request) => request.url)).toEqual([`/api/analytics/website/w1/daily?startDate=${startDate}&endDate=${endDate}`]);

      const chart = await within(trend).findByRole('img');
      const day = (iso: string) => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
      expect(chart).toHaveAttribute(
        'aria-label',
        `Visitors and page views per day, ${day(startDate)} to ${day(endDate)}: 2,900 page views in total; busiest day ${day(lastDaysRange(2).startDate)} with 600 visitors and 1,500 page views`,
      );
      // The same total as the report's tile above it.
      expect(screen.getByLabelText('Total Pageviews: 2,900')).toBeInTheDocument();

      const table = within(trend).getByRole('table', { name: 'Unique visitors and page views per day' });
      const rows = within(table).getAllByRole('row').slice(1);
      expect(rows).toHaveLength(30);
      expect(rows[0]).toHaveTextContent(`${day(startDate)}00`);
      expect(rows[29]).toHaveTextContent(`${day(endDate)}7001,400`);
      expect(within(trend).queryByText('No page views in this period')).not.toBeInTheDocument();
    });

    it('asks for the days of a quick range the picker sets', async () => {
      const { requests } = stubApi();
      renderInApp(<AnalyticsPage />);
      const user = await chooseWebsite('Shop (shop.example)');
      await screen.findByRole('table', { name: 'Unique visitors and page views per day' });
      await user.click(screen.getByRole('button', { name: '7 days' }));
      const week = lastDaysRange(7);
      expect(dailyRequests(requests).at(-1)?.url).toBe(`/api/analytics/website/w1/daily?startDate=${week.startDate}&endDate=${week.endDate}`);
      await waitFor(() => expect(within(screen.getByRole('table', { name: 'Unique visitors and page views per day' })).getAllByRole('row')).toHaveLength(8));
    });

    it('says what to do next when the range has no page views', async () => {
      stubApi(websites, (request) => dailyAnswer(request, () => ({ uniqueVisitors: 0, pageviews: 0 })));
      renderInApp(<AnalyticsPage />);
      await chooseWebsite('Shop (shop.example)');
      const trend = await screen.findByRole('region', { name: 'Visitors and Page Views' });
      expect(await within(trend).findByText('No page views in this period')).toBeInTheDocument();
      expect(within(trend).getByText(/install the snippet on every page of your website/)).toBeInTheDocument();
      expect(within(trend).getByRole('link', { name: 'Install the snippet' })).toHaveAttribute('href', '/websites/w1/installation');
      expect(within(trend).queryByRole('img')).not.toBeInTheDocument();
      expect(within(trend).queryByRole('table')).not.toBeInTheDocument();
    });

    it('says when the days could not be loaded, and still shows the rest of the report', async () => {
      stubApi(websites, () => new Response('Database unavailable', { status: 503 }));
      renderInApp(<AnalyticsPage />);
      await chooseWebsite('Shop (shop.example)');
      const trend = await screen.findByRole('region', { name: 'Visitors and Page Views' });
      expect(await within(trend).findByRole('alert')).toHaveTextContent('Visitors per day could not be loaded. 503: Database unavailable');
      expect(screen.getByLabelText('Unique Visitors: 1,234')).toBeInTheDocument();
    });

    it('shows the api error as `status: body`', async () => {
      stubFetch({
        'GET /api/websites': () => jsonResponse(websites),
        'GET /api/stats/websites': () => jsonResponse([]),
        'GET /api/analytics/website/w2': () => new Response('Website not found', { status: 404 }),
      });
      renderInApp(<AnalyticsPage />);
      await chooseWebsite('Blog (blog.example)');
      expect(await screen.findByText('Analytics could not be loaded.')).toBeInTheDocument();
      expect(screen.getByText('404: Website not found')).toBeInTheDocument();
    });
  });
});
