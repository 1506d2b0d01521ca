// The Analytics & Consent screen's state machine (spec sections 4, 5 and 9): empty until a website is
// chosen (and nothing asked of the analytics api before), then that website's figures for the last
// 30 days; a quick range or new dates ask again, and a range the api would refuse is not sent.
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderInApp, stubFetch, type StubbedRequest } from '../../test/render';
import { AnalyticsPage } from './analytics-page';
import { lastDaysRange } from './date-range';

// jsdom has no canvas; the chart's numbers are listed beside it anyway.
vi.mock('./doughnut-chart', () => ({ default: () => null }));

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

const analyticsRequests = (requests: StubbedRequest[]) => requests.filter((request) => request.url.startsWith('/api/analytics/'));

function stubApi(websiteList: unknown[] = websites) {
  return stubFetch({
    'GET /api/websites': () => jsonResponse(websiteList),
    'GET /api/stats/websites': () => jsonResponse([{ website: { id: 'w1', domain: 'shop.example' }, totalConsents: 640, consentRate: 71.25 }]),
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
