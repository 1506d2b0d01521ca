// The Recommendations screen's state machine (spec sections 2, 3, 4 and 9): the all-websites overview
// first (last 30 days, no period to choose), then one website's report whose period switches between
// 7, 30 and 90 days, each recommendation with its severity, actions, effort and the metrics it rests on.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch, type StubbedRequest } from '../../test/render';
import type { Recommendation } from './queries';
import { RecommendationsPage } from './recommendations-page';

const websites = [
  { id: 'w1', name: 'Shop', domain: 'shop.example', isActive: true, embedCode: 'emb_1', createdAt: '2024-05-01T10:00:00Z' },
  { id: 'w2', name: 'Blog', domain: 'blog.example', isActive: true, embedCode: 'emb_2', createdAt: '2024-05-02T10:00:00Z' },
];

const lowRate: Recommendation = {
  id: 'low-consent-rate:w1',
  type: 'consent_rate',
  severity: 'high',
  title: 'Consent rate is low',
  description: '25.0% of the 60 choices in the last 30 days were Accept.',
  impact: 'Fewer accepting visitors means fewer page views in your analytics.',
  actionItems: ['Say in one or two plain sentences what you collect.', 'Link your privacy policy from the banner.'],
  estimatedImprovement: 'Clearer wording typically gains 5 to 10 percentage points.',
  timeToImplement: '30 minutes',
  implementationDifficulty: 'easy',
  priority: 206,
  relatedMetrics: ['consentRate', 'totalConsents'],
};

const policyLink: Recommendation = {
  id: 'missing-privacy-policy-link:w1',
  type: 'legal',
  severity: 'medium',
  title: 'The banner does not link to a privacy policy',
  description: 'Visitors cannot open your privacy policy from the banner.',
  impact: 'Consent is only informed when visitors can read what they agree to.',
  actionItems: ['Add your privacy policy URL in the website settings.'],
  estimatedImprovement: 'Informed choices, and often more trust.',
  timeToImplement: '5 minutes',
  implementationDifficulty: 'easy',
  priority: 309,
  relatedMetrics: ['privacyPolicyUrl'],
};

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
};

function report(days: number) {
  return {
    consentRate: days === 7 ? 10 : 25,
    totalConsents: days === 7 ? 20 : 60,
    mobileConsentRate: 20,
    desktopConsentRate: 28.571,
    recommendations: days === 90 ? [] : [lowRate, policyLink],
  };
}

function stubApi() {
  return stubFetch({
    'GET /api/websites/w1/settings': () => jsonResponse(settings),
    'GET /api/websites': () => jsonResponse(websites),
    'GET /api/recommendations/all': () =>
      jsonResponse([
        { website: websites[0]!, consentRate: 25, totalConsents: 60, recommendations: [lowRate, policyLink] },
        { website: websites[1]!, consentRate: 80, totalConsents: 3, recommendations: [] },
      ]),
    'GET /api/recommendations/website/w1': (request) => jsonResponse(report(Number(new URL(request.url, 'http://x').searchParams.get('days')))),
  });
}

const reportRequests = (requests: StubbedRequest[]) => requests.filter((request) => request.url.startsWith('/api/recommendations/website/'));

describe('recommendations page', () => {
  describe('with All Websites chosen', () => {
    it('shows the overview of every website over the last 30 days, with no period to choose', async () => {
      const { requests } = stubApi();
      renderInApp(<RecommendationsPage />);
      const shop = await screen.findByRole('article', { name: 'Shop' });
      expect(within(shop).getByText('25.0%')).toBeInTheDocument();
      expect(within(shop).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
        'HighConsent rate is low',
        'MediumThe banner does not link to a privacy policy',
      ]);
      expect(within(shop).getByText('Consent rate is low')).toBeInTheDocument();
      expect(within(screen.getByRole('article', { name: 'Blog' })).getByText('No recommendations available')).toBeInTheDocument();
      expect(screen.getByText('2 recommendations for 2 websites, 1 of them critical or high, over the last 30 days.')).toBeInTheDocument();

      expect(screen.getByRole('combobox', { name: 'Website' })).toHaveTextContent('All Websites');
      expect(screen.getByRole('combobox', { name: 'Period' })).toBeDisabled();
      expect(screen.getByRole('combobox', { name: 'Period' })).toHaveTextContent('Last 30 days');
      expect(reportRequests(requests)).toEqual([]);
    });
  });

  describe('with one website chosen', () => {
    it("shows its report, and the period switches between 7, 30 and 90 days", async () => {
      const { requests } = stubApi();
      renderInApp(<RecommendationsPage />);
      const user = userEvent.setup();
      await user.click(within(await screen.findByRole('article', { name: 'Shop' })).getByRole('button', { name: 'View details' }));

      expect(await screen.findByLabelText('Consent Rate: 25.0%')).toBeInTheDocument();
      expect(reportRequests(requests).map((request) => request.url)).toEqual(['/api/recommendations/website/w1?days=30']);
      expect(screen.getByRole('combobox', { name: 'Website' })).toHaveTextContent('Shop (shop.example)');
      expect(screen.getByLabelText('Total Consents: 60')).toBeInTheDocument();
      expect(screen.getByLabelText('Mobile Consent Rate: 20.0%')).toBeInTheDocument();
      expect(screen.getByLabelText('Desktop Consent Rate: 28.6%')).toBeInTheDocument();

      const card = screen.getByRole('article', { name: 'Consent rate is low' });
      expect(within(card).getByText('High')).toBeInTheDocument();
      expect(within(card).getByText('Consent rate', { selector: 'span' })).toBeInTheDocument();
      expect(within(card).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
        'Say in one or two plain sentences what you collect.',
        'Link your privacy policy from the banner.',
        'Consent rate: 25.0%',
        'Total consents: 60',
      ]);
      expect(within(card).getByText('Clearer wording typically gains 5 to 10 percentage points.')).toBeInTheDocument();
      expect(within(card).getByText('30 minutes')).toBeInTheDocument();
      expect(within(card).getByText('Easy')).toBeInTheDocument();
      // A recommendation resting on a setting shows its value and leads to the website's settings.
      const policy = screen.getByRole('article', { name: 'The banner does not link to a privacy policy' });
      expect(await within(policy).findByText(': None')).toBeInTheDocument();
      expect(within(policy).getByRole('link', { name: 'Open website settings' })).toHaveAttribute('href', '/websites/w1/banner');

      const period = screen.getByRole('combobox', { name: 'Period' });
      expect(period).toBeEnabled();
      await user.click(period);
      await user.click(await screen.findByRole('option', { name: 'Last 7 days' }));
      expect(await screen.findByLabelText('Consent Rate: 10.0%')).toBeInTheDocument();
      expect(screen.getByText('Last 7 days, most urgent first')).toBeInTheDocument();

      await user.click(screen.getByRole('combobox', { name: 'Period' }));
      await user.click(await screen.findByRole('option', { name: 'Last 90 days' }));
      expect(await screen.findByText('No recommendations available')).toBeInTheDocument();
      expect(reportRequests(requests).map((request) => request.url)).toEqual([
        '/api/recommendations/website/w1?days=30',
        '/api/recommendations/website/w1?days=7',
        '/api/recommendations/website/w1?days=90',
      ]);

      // Back to the overview.
      await user.click(screen.getByRole('combobox', { name: 'Website' }));
      await user.click(await screen.findByRole('option', { name: 'All Websites' }));
      expect(await screen.findByRole('article', { name: 'Blog' })).toBeInTheDocument();
    });
  });
});
