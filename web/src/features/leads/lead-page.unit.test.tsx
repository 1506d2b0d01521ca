// A lead's page: header with the consent status and LinkedIn link, identity and company with the
// network and enrichment (or "Enrichment pending" and the spec's 24 hours), activity, the consent
// proof linking its receipt, and the timeline newest first.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { LeadPage } from './lead-page';
import type { LeadDetail, LeadWithTimeline } from './queries';

const detail: LeadDetail = {
  websiteId: 'w1',
  websiteName: 'Shop',
  visitorId: 'v1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  company: 'Analytical Engines',
  title: 'Founder',
  source: 'form',
  identifiedAt: '2024-05-01T10:00:00Z',
  firstSeen: '2024-04-30T09:00:00Z',
  lastSeen: '2024-05-02T11:30:00Z',
  pagesViewed: 12,
  engagedSeconds: 3900,
  consentStatus: 'granted',
  enrichmentStatus: 'enriched',
  network: { asn: 64500, organisation: 'Analytical Engines Ltd' },
  enrichment: {
    provider: 'hunter',
    enrichedAt: '2024-05-01T12:00:00Z',
    name: 'Ada Lovelace',
    title: 'Founder',
    company: 'Analytical Engines',
    domain: 'engines.example',
    industry: 'Computing',
    size: '11-50',
    linkedinUrl: 'https://www.linkedin.com/in/ada',
    location: 'London, GB',
  },
  consentEventId: '0b7c6f2e-1111-4222-8333-444455556666',
  consentChangedAt: '2024-05-01T09:59:00Z',
  receiptUrl: '/api/consents/0b7c6f2e-1111-4222-8333-444455556666/receipt',
};

const answer: LeadWithTimeline = {
  lead: detail,
  timeline: [
    { at: '2024-05-01T09:59:00Z', kind: 'consent', detail: { method: 'accept_all', granted: ['analytics', 'identification'], eventId: 'c1' } },
    { at: '2024-05-01T12:00:00Z', kind: 'enriched', detail: { provider: 'hunter' } },
    { at: '2024-05-01T10:00:00Z', kind: 'identified', detail: { source: 'form', pageUrl: 'https://shop.example/contact' } },
  ],
  enrichmentOn: true,
};

function stub(body: unknown, status = 200) {
  return stubFetch({ 'GET /api/leads/w1/v1': () => jsonResponse(body, status) });
}

describe('lead page', () => {
  it('shows who the lead is, their company, activity and consent proof', async () => {
    const { requests } = stub(answer);
    renderInApp(<LeadPage websiteId="w1" visitorId="v1" />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(requests[0]).toMatchObject({ url: '/api/leads/w1/v1', credentials: 'include' });
    expect(screen.getByText('ada@example.com · Founder · Analytical Engines')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'LinkedIn profile' })).toHaveAttribute('href', 'https://www.linkedin.com/in/ada');

    const identity = screen.getByRole('region', { name: 'Identity and company' });
    expect(within(identity).getByText('Analytical Engines Ltd')).toBeInTheDocument();
    expect(within(identity).getByText('(AS64500)')).toBeInTheDocument();
    expect(within(identity).getByText(`From hunter on ${formatDateTime('2024-05-01T12:00:00Z')}`)).toBeInTheDocument();
    expect(within(identity).getByText('Computing')).toBeInTheDocument();
    expect(within(identity).getByText('11-50')).toBeInTheDocument();

    const activity = screen.getByRole('region', { name: 'Activity' });
    expect(within(activity).getByText('12')).toBeInTheDocument();
    expect(within(activity).getByText('1h 5m')).toBeInTheDocument();

    const proof = screen.getByRole('region', { name: 'Consent proof' });
    expect(within(proof).getByText('Allowed')).toBeInTheDocument();
    expect(within(proof).getByText(detail.consentEventId)).toBeInTheDocument();
    expect(within(proof).getByRole('link', { name: 'Consent receipt' })).toHaveAttribute('href', `/receipts/${detail.consentEventId}`);
  });

  it('lists the timeline newest first, with a receipt per choice', async () => {
    stub(answer);
    renderInApp(<LeadPage websiteId="w1" visitorId="v1" />);
    const timeline = await screen.findByRole('list', { name: 'Timeline' });
    const items = within(timeline).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual(['Enriched by hunter', 'Identified from a form', 'Allowed identification']);
    expect(within(items[2]!).getByRole('link', { name: 'Receipt' })).toHaveAttribute('href', '/receipts/c1');
  });

  it('says enrichment is pending and may take up to 24 hours', async () => {
    stub({ ...answer, lead: { ...detail, enrichment: null, enrichmentStatus: 'pending', network: null } });
    renderInApp(<LeadPage websiteId="w1" visitorId="v1" />);
    const identity = await screen.findByRole('region', { name: 'Identity and company' });
    expect(within(identity).getByText('Enrichment pending')).toBeInTheDocument();
    expect(within(identity).getByText(/Data enrichment may take up to 24 hours\./)).toBeInTheDocument();
    expect(within(identity).getByText(/No company network matched/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'LinkedIn profile' })).not.toBeInTheDocument();
  });

  it('says enrichment is off, and how to turn it on, when the server has no provider', async () => {
    stub({ ...answer, enrichmentOn: false, lead: { ...detail, enrichment: null, enrichmentStatus: 'pending' } });
    renderInApp(<LeadPage websiteId="w1" visitorId="v1" />);
    const identity = await screen.findByRole('region', { name: 'Identity and company' });
    expect(within(identity).getByText('Enrichment is off')).toBeInTheDocument();
    expect(within(identity).getByText('ENRICHMENT_PROVIDER')).toBeInTheDocument();
    expect(within(identity).getByText(/docs\/identification\.md/)).toBeInTheDocument();
    expect(within(identity).queryByText('Enrichment pending')).not.toBeInTheDocument();
    expect(within(identity).queryByText(/may take up to 24 hours/)).not.toBeInTheDocument();
  });

  it('says when the visitor withdrew identification', async () => {
    stub({ ...answer, lead: { ...detail, consentStatus: 'withdrawn', consentChangedAt: '2024-05-03T08:00:00Z' } });
    renderInApp(<LeadPage websiteId="w1" visitorId="v1" />);
    expect(await screen.findByRole('note')).toHaveTextContent(`This visitor withdrew identification on ${formatDateTime('2024-05-03T08:00:00Z')}.`);
    expect(within(screen.getByRole('region', { name: 'Consent proof' })).getByText('Withdrawn')).toBeInTheDocument();
  });

  it('does not link a profile address that is not http or https', async () => {
    stub({ ...answer, lead: { ...detail, enrichment: { ...detail.enrichment!, linkedinUrl: 'javascript:alert(1)' } } });
    renderInApp(<LeadPage websiteId="w1" visitorId="v1" />);
    await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' });
    expect(screen.queryByRole('link', { name: 'LinkedIn profile' })).not.toBeInTheDocument();
    expect(document.querySelector('a[href^="javascript:"]')).toBeNull();
  });

  it('reads "Lead not found" for a lead the api does not know', async () => {
    stub({ error: { code: 'LEAD_NOT_FOUND', message: 'Lead not found' } }, 404);
    renderInApp(<LeadPage websiteId="w1" visitorId="v1" />);
    expect(await screen.findByText('Lead not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All leads' })).toHaveAttribute('href', '/leads');
  });
});
