// The Leads screen: the table of leads with its badges, "Load more" keyset pages, the debounced search
// and sortable columns (both handed to the route as a new search), the empty states (how to turn Lead
// identification on; no match for the filters) and the exports for the filters in use.
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { LeadsPage } from './leads-page';
import type { LeadSummary } from './queries';

const websites = [{ id: 'w1', name: 'Shop', domain: 'shop.example', isActive: true, embedCode: 'emb_1', createdAt: '2024-05-01T10:00:00Z' }];

function lead(overrides: Partial<LeadSummary> = {}): LeadSummary {
  return {
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
    pagesViewed: 1234,
    engagedSeconds: 155,
    consentStatus: 'granted',
    enrichmentStatus: 'enriched',
    ...overrides,
  };
}

describe('leads page', () => {
  it('lists leads with their consent and enrichment, and loads the next keyset page on Load more', async () => {
    const { requests } = stubFetch({
      'GET /api/websites': () => jsonResponse(websites),
      'GET /api/leads?': (request) =>
        request.url.includes('cursor=')
          ? jsonResponse({ leads: [lead({ visitorId: 'v3', name: null, email: 'grace@example.com', consentStatus: 'withdrawn', enrichmentStatus: 'pending' })], nextCursor: null })
          : jsonResponse({ leads: [lead(), lead({ visitorId: 'v2', name: 'Bob', email: 'bob@example.com', source: 'network', enrichmentStatus: 'failed' })], nextCursor: 'page-2' }),
    });
    renderInApp(<LeadsPage search={{ websiteId: 'w1' }} onSearchChange={vi.fn()} />);

    const table = await screen.findByRole('table', { name: 'Leads' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    const first = within(rows[1]!);
    expect(first.getByRole('link', { name: 'Ada Lovelace ada@example.com' })).toHaveAttribute('href', '/leads/w1/v1');
    expect(first.getByText('ada@example.com')).toBeInTheDocument();
    expect(first.getByText('Analytical Engines')).toBeInTheDocument();
    expect(first.getByText('Founder')).toBeInTheDocument();
    expect(first.getByText('via Form')).toBeInTheDocument();
    expect(first.getByText('1,234 pages')).toBeInTheDocument();
    expect(first.getByText('2m 35s engaged')).toBeInTheDocument();
    expect(first.getByText('Allowed')).toBeInTheDocument();
    expect(first.getByText('Enriched')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('via Company network')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Failed')).toBeInTheDocument();
    expect(requests.find((request) => request.url.startsWith('/api/leads?'))).toMatchObject({
      url: '/api/leads?websiteId=w1&sort=lastSeen&order=desc&limit=50',
      credentials: 'include',
    });

    await userEvent.setup().click(screen.getByRole('button', { name: 'Load more' }));
    const third = await within(table).findByRole('link', { name: 'grace@example.com' });
    expect(third).toHaveAttribute('href', '/leads/w1/v3');
    const thirdRow = within(third.closest('tr')!);
    expect(thirdRow.getByText('Withdrawn')).toBeInTheDocument();
    expect(thirdRow.getByText('Pending')).toBeInTheDocument();
    expect(requests.filter((request) => request.url.startsWith('/api/leads?')).at(-1)?.url).toBe(
      '/api/leads?websiteId=w1&sort=lastSeen&order=desc&limit=50&cursor=page-2',
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.getByText('3 leads shown')).toBeInTheDocument();
  });

  it('lists each lead once, as a list with a sort choice on narrow screens', async () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({ matches: false, media: query, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
    );
    stubFetch({ 'GET /api/websites': () => jsonResponse(websites), 'GET /api/leads?': () => jsonResponse({ leads: [lead()], nextCursor: null }) });
    const onSearchChange = vi.fn();
    renderInApp(<LeadsPage search={{}} onSearchChange={onSearchChange} />);
    const list = await screen.findByRole('list', { name: 'Leads' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^Ada Lovelace/ })).toHaveLength(1);
    expect(within(list).getByText('Shop · last seen', { exact: false })).toHaveTextContent('1,234 pages · 2m 35s engaged');
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Sort' }));
    await user.click(await screen.findByRole('option', { name: 'Email, Z to A' }));
    expect(onSearchChange).toHaveBeenCalledWith({ sort: 'email', order: 'desc' }, undefined);
  });

  it('marks the sorted column and asks the route for another sort', async () => {
    stubFetch({ 'GET /api/websites': () => jsonResponse(websites), 'GET /api/leads?': () => jsonResponse({ leads: [lead()], nextCursor: null }) });
    const onSearchChange = vi.fn();
    renderInApp(<LeadsPage search={{ q: 'ada' }} onSearchChange={onSearchChange} />);
    const table = await screen.findByRole('table', { name: 'Leads' });
    expect(within(table).getByRole('columnheader', { name: /Last seen/ })).toHaveAttribute('aria-sort', 'descending');
    expect(within(table).getByRole('columnheader', { name: /Identified/ })).toHaveAttribute('aria-sort', 'none');
    const user = userEvent.setup();
    await user.click(within(table).getByRole('button', { name: 'Lead' }));
    expect(onSearchChange).toHaveBeenLastCalledWith({ q: 'ada', sort: 'email' }, undefined);
    await user.click(within(table).getByRole('button', { name: 'Last seen' }));
    expect(onSearchChange).toHaveBeenLastCalledWith({ q: 'ada', sort: 'lastSeen', order: 'asc' }, undefined);
  });

  it('applies the search once typing rests, replacing the history entry', async () => {
    stubFetch({ 'GET /api/websites': () => jsonResponse(websites), 'GET /api/leads?': () => jsonResponse({ leads: [lead()], nextCursor: null }) });
    const onSearchChange = vi.fn();
    renderInApp(<LeadsPage search={{ status: 'granted' }} onSearchChange={onSearchChange} />);
    const search = await screen.findByRole('searchbox', { name: 'Search' });
    // Three changes in one go: one search, for the last of them.
    fireEvent.change(search, { target: { value: 'a' } });
    fireEvent.change(search, { target: { value: 'ad' } });
    fireEvent.change(search, { target: { value: ' ada ' } });
    await vi.waitFor(() => expect(onSearchChange).toHaveBeenCalled());
    expect(onSearchChange).toHaveBeenCalledTimes(1);
    expect(onSearchChange).toHaveBeenCalledWith({ status: 'granted', q: 'ada' }, { replace: true });
  });

  it("says a pending enrichment is off when the server has no provider, and Pending when it has one", async () => {
    const pending = lead({ enrichmentStatus: 'pending' });
    let enrichmentOn = false;
    stubFetch({ 'GET /api/websites': () => jsonResponse(websites), 'GET /api/leads?': () => jsonResponse({ leads: [pending], nextCursor: null, enrichmentOn }) });
    const { unmount } = renderInApp(<LeadsPage search={{}} onSearchChange={vi.fn()} />);
    expect(await screen.findByText('Enrichment off')).toBeInTheDocument();
    expect(screen.queryByText('Pending')).not.toBeInTheDocument();
    unmount();

    enrichmentOn = true;
    renderInApp(<LeadsPage search={{}} onSearchChange={vi.fn()} />);
    expect(await screen.findByText('Pending')).toBeInTheDocument();
    expect(screen.queryByText('Enrichment off')).not.toBeInTheDocument();
  });

  it('folds the filters behind a button on a phone, saying how many are in use; the search stays', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: !query.includes('min-width'), media: query, addEventListener: () => undefined, removeEventListener: () => undefined }));
    stubFetch({ 'GET /api/websites': () => jsonResponse(websites), 'GET /api/leads?': () => jsonResponse({ leads: [lead()], nextCursor: null, enrichmentOn: true }) });
    renderInApp(<LeadsPage search={{ status: 'granted', company: 'Analytical Engines' }} onSearchChange={vi.fn()} />);
    const toggle = await screen.findByRole('button', { name: 'Show filters (2 in use)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByLabelText('Search')).toBeVisible();
    expect(screen.getByLabelText('Company')).not.toBeVisible();
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide filters (2 in use)' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByLabelText('Company')).toBeVisible();
  });

  it('explains how to turn Lead identification on when there are no leads, linking to each website’s settings', async () => {
    stubFetch({ 'GET /api/websites': () => jsonResponse(websites), 'GET /api/leads?': () => jsonResponse({ leads: [], nextCursor: null }) });
    renderInApp(<LeadsPage search={{}} onSearchChange={vi.fn()} />);
    expect(await screen.findByText('No leads yet')).toBeInTheDocument();
    expect(screen.getByText(/Turn on Lead identification in a website's settings/)).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'Lead identification on Shop' });
    expect(link.getAttribute('href')).toBe('/websites/w1/banner#lead-identification');
  });

  describe("on a website's Leads tab", () => {
    const two = [...websites, { id: 'w2', name: 'Blog', domain: 'blog.example', isActive: true, embedCode: 'emb_2', createdAt: '2024-05-02T10:00:00Z' }];

    it('lists that website’s leads only, with no website filter and nothing to clear', async () => {
      const { requests } = stubFetch({ 'GET /api/websites': () => jsonResponse(two), 'GET /api/leads?': () => jsonResponse({ leads: [], nextCursor: null }) });
      renderInApp(<LeadsPage website={two[1]!} search={{}} onSearchChange={vi.fn()} />);
      expect(await screen.findByRole('heading', { level: 2, name: 'Leads' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
      // Its empty state points at this website's settings, not every website's.
      expect(await screen.findByText('No leads yet')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Lead identification on Blog' })).toHaveAttribute('href', '/websites/w2/banner#lead-identification');
      expect(screen.queryByRole('link', { name: 'Lead identification on Shop' })).not.toBeInTheDocument();
      expect(screen.queryByRole('combobox', { name: 'Website' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
      expect(requests.find((request) => request.url.startsWith('/api/leads?'))?.url).toContain('websiteId=w2');
    });

    it('keeps the website out of the search it hands the route', async () => {
      stubFetch({ 'GET /api/websites': () => jsonResponse(two), 'GET /api/leads?': () => jsonResponse({ leads: [lead({ websiteId: 'w2' })], nextCursor: null }) });
      const onSearchChange = vi.fn();
      renderInApp(<LeadsPage website={two[1]!} search={{}} onSearchChange={onSearchChange} />);
      const table = await screen.findByRole('table', { name: 'Leads' });
      await userEvent.setup().click(within(table).getByRole('button', { name: /^Lead/ }));
      expect(onSearchChange).toHaveBeenLastCalledWith({ sort: 'email' }, undefined);
    });
  });

  it('offers to clear the filters when nothing matches them', async () => {
    stubFetch({ 'GET /api/websites': () => jsonResponse(websites), 'GET /api/leads?': () => jsonResponse({ leads: [], nextCursor: null }) });
    const onSearchChange = vi.fn();
    renderInApp(<LeadsPage search={{ company: 'Nobody Ltd', sort: 'email' }} onSearchChange={onSearchChange} />);
    expect(await screen.findByText('No leads match these filters')).toBeInTheDocument();
    expect(screen.queryByText('No leads yet')).not.toBeInTheDocument();
    const clear = screen.getAllByRole('button', { name: 'Clear filters' });
    await userEvent.setup().click(clear[0]!);
    expect(onSearchChange).toHaveBeenCalledWith({ sort: 'email' }, undefined);
  });

  describe('exports', () => {
    let downloads: string[];

    beforeEach(() => {
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:test'), revokeObjectURL: vi.fn() }));
      downloads = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        downloads.push(this.download);
      });
    });

    it('exports the CSV of the filtered leads and an audience file of the chosen website', async () => {
      const { requests } = stubFetch({
        'GET /api/websites': () => jsonResponse(websites),
        'GET /api/leads?': () => jsonResponse({ leads: [lead()], nextCursor: null }),
        'GET /api/leads/export.csv': () => new Response('email\nada@example.com', { headers: { 'Content-Disposition': 'attachment; filename="leads.csv"' } }),
        'GET /api/leads/audience.csv': () => new Response('Email\nabc'),
      });
      renderInApp(<LeadsPage search={{ websiteId: 'w1', status: 'granted', sort: 'email' }} onSearchChange={vi.fn()} />);
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
      expect(await screen.findByText('Export successful')).toBeInTheDocument();
      expect(requests.find((request) => request.url.startsWith('/api/leads/export.csv'))).toMatchObject({
        url: '/api/leads/export.csv?websiteId=w1',
        credentials: 'include',
      });

      await user.click(screen.getByRole('button', { name: 'Audience file' }));
      await user.click(await screen.findByRole('menuitem', { name: 'LinkedIn (matched audience)' }));
      await vi.waitFor(() => expect(downloads).toHaveLength(2));
      expect(requests.find((request) => request.url.startsWith('/api/leads/audience.csv'))?.url).toBe('/api/leads/audience.csv?websiteId=w1&format=linkedin');
      expect(downloads[0]).toBe('leads.csv');
      expect(downloads[1]).toMatch(/^audience-linkedin-\d{4}-\d{2}-\d{2}\.csv$/);
    });

    it('says when an export fails', async () => {
      stubFetch({
        'GET /api/websites': () => jsonResponse(websites),
        'GET /api/leads?': () => jsonResponse({ leads: [lead()], nextCursor: null }),
        'GET /api/leads/export.csv': () => jsonResponse({ error: { code: 'X', message: 'no' } }, 500),
      });
      renderInApp(<LeadsPage search={{}} onSearchChange={vi.fn()} />);
      await userEvent.setup().click(await screen.findByRole('button', { name: 'Export CSV' }));
      expect(await screen.findByText('Export failed')).toBeInTheDocument();
      expect(downloads).toEqual([]);
    });
  });
});
