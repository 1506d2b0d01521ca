// The Cookie scan tab: starting a scan (and the api's refusal while one is open), following its
// progress by polling until it completes, the report with its findings first and every item with the
// owner's purpose, a failed scan's reason, the history and what changed since the previous scan.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import CookieScanTab from './cookie-scan-tab';
import type { ItemPurposeAssignment, ScanFinding, ScanReport, ScanSummary, ScannedItem } from './queries';

const summary = (scanId: string, overrides: Partial<ScanSummary> = {}): ScanSummary => ({
  scanId,
  websiteId: 'w1',
  trigger: 'owner',
  requestedBy: 'u1',
  maxPages: 25,
  status: 'completed',
  requestedAt: '2024-05-07T10:00:00.000Z',
  startedAt: '2024-05-07T10:00:05.000Z',
  completedAt: '2024-05-07T10:01:10.000Z',
  pagesScanned: 12,
  truncated: false,
  failureReason: null,
  findingCount: 2,
  progress: { pagesDone: 12, pagesPlanned: 12, currentUrl: null },
  ...overrides,
});

const queued = (scanId: string) =>
  summary(scanId, { status: 'queued', startedAt: null, completedAt: null, pagesScanned: null, truncated: null, findingCount: 0, progress: { pagesDone: 0, pagesPlanned: 0, currentUrl: null } });

const item = (name: string, overrides: Partial<ScannedItem> = {}): ScannedItem => ({
  kind: 'cookie',
  name,
  domain: '.example.com',
  purpose: 'analytics',
  source: 'database',
  platform: 'Google Analytics',
  controller: 'Google',
  retention: '2 years',
  firstParty: true,
  firstSeenUrl: 'https://www.example.com/',
  seenBefore: true,
  seenAfterAccept: true,
  seenAfterReject: false,
  ...overrides,
});

const gaBeforeConsent: ScanFinding = {
  code: 'set_before_consent',
  severity: 'critical',
  subject: '_ga',
  message: '_ga (analytics, Google Analytics) is set before the visitor chooses, on 12 pages.',
  pages: ['https://www.example.com/', 'https://www.example.com/menu'],
  pageCount: 12,
};
const cartNotDeclared: ScanFinding = {
  code: 'seen_not_declared',
  severity: 'low',
  subject: 'cart_id',
  message: 'cart_id is stored but no service of the website declares it.',
  pages: ['https://www.example.com/shop'],
  pageCount: 1,
};
const bannerMissing: ScanFinding = {
  code: 'banner_missing',
  severity: 'medium',
  subject: null,
  message: 'The banner did not appear on 1 page.',
  pages: ['https://www.example.com/old'],
  pageCount: 1,
};

const cartItem = item('cart_id', { purpose: null, source: null, platform: null, controller: null, retention: '2024-06-07T10:00:00.000Z', firstSeenUrl: 'https://www.example.com/shop', seenAfterReject: true });
const latestReport: ScanReport = {
  ...summary('s2', { requestedAt: '2024-05-08T10:00:00.000Z', completedAt: '2024-05-08T10:01:00.000Z' }),
  findings: [gaBeforeConsent, cartNotDeclared],
  items: [item('_ga'), cartItem],
};
const previousReport: ScanReport = {
  ...summary('s1', { findingCount: 2 }),
  findings: [gaBeforeConsent, bannerMissing],
  items: [item('_ga'), item('_fbp', { purpose: 'marketing', platform: 'Meta Pixel', controller: 'Meta', firstParty: false })],
};

function stubScans({ history, assignments = [] }: { history: ScanSummary[] | (() => ScanSummary[]); assignments?: ItemPurposeAssignment[] }) {
  let saved = [...assignments];
  return stubFetch({
    'GET /api/websites/w1/scans': () => jsonResponse(typeof history === 'function' ? history() : history),
    'GET /api/scans/s2': () => jsonResponse(latestReport),
    'GET /api/scans/s1': () => jsonResponse(previousReport),
    'GET /api/websites/w1/item-purposes': () => jsonResponse(saved),
    'POST /api/websites/w1/item-purposes': (request) => {
      const body = request.body as { kind: ItemPurposeAssignment['kind']; name: string; purpose: ItemPurposeAssignment['purpose'] | null };
      saved = saved.filter((entry) => entry.kind !== body.kind || entry.name !== body.name);
      if (body.purpose) saved.push({ kind: body.kind, name: body.name, purpose: body.purpose });
      return jsonResponse(saved);
    },
  });
}

describe('the Cookie scan tab', () => {
  it('starts a scan and shows it queued, with Scan now disabled while it waits', async () => {
    let history: ScanSummary[] = [];
    const { requests } = stubFetch({
      'GET /api/websites/w1/scans': () => jsonResponse(history),
      'POST /api/websites/w1/scans': () => {
        history = [queued('s9')];
        return jsonResponse(history[0], 202);
      },
    });
    renderInApp(<CookieScanTab websiteId="w1" />);
    expect(await screen.findByText('This website has not been scanned yet.')).toBeInTheDocument();
    expect(screen.getByText('No scans yet')).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Scan now' }));
    const progress = await screen.findByRole('status', { name: 'Scan progress' });
    expect(within(progress).getByText('Queued')).toBeInTheDocument();
    expect(within(progress).getByText('Waiting for the scanner to start.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Scan now' })).toBeDisabled();
    expect(requests.filter((request) => request.method === 'POST')).toEqual([expect.objectContaining({ url: '/api/websites/w1/scans', body: {} })]);
    const historyCard = screen.getByRole('region', { name: 'Scan history' });
    expect(within(historyCard).getAllByRole('row')[1]).toHaveTextContent('Queued');
  });

  it('shows the Scheduled scans card with the saved interval', async () => {
    stubFetch({
      'GET /api/websites/w1/scans': () => jsonResponse([]),
      'GET /api/websites/w1/settings': () => jsonResponse({ scanIntervalDays: 7 }),
    });
    renderInApp(<CookieScanTab websiteId="w1" />);
    const schedule = await screen.findByRole('region', { name: 'Scheduled scans' });
    await waitFor(() => expect(within(schedule).getByLabelText('Scan automatically every')).toHaveValue(7));
  });

  it("shows the api's message when a scan is already waiting or running", async () => {
    stubFetch({
      'GET /api/websites/w1/scans': () => jsonResponse([]),
      'POST /api/websites/w1/scans': () => jsonResponse({ error: { code: 'SCAN_IN_PROGRESS', message: 'A scan of this website is already waiting or running' } }, 409),
    });
    renderInApp(<CookieScanTab websiteId="w1" />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Scan now' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A scan of this website is already waiting or running');
  });

  it('follows a running scan by polling until its report is there', async () => {
    let polls = 0;
    const running = summary('s2', {
      status: 'running',
      completedAt: null,
      pagesScanned: null,
      truncated: null,
      findingCount: 0,
      progress: { pagesDone: 3, pagesPlanned: 10, currentUrl: 'https://www.example.com/menu' },
    });
    stubScans({ history: () => (++polls === 1 ? [running] : [latestReport]) });
    renderInApp(<CookieScanTab websiteId="w1" />);
    const progress = await screen.findByRole('status', { name: 'Scan progress' });
    expect(within(progress).getByText('3 of 10 pages scanned')).toBeInTheDocument();
    expect(within(progress).getByText('https://www.example.com/menu')).toBeInTheDocument();
    expect(within(progress).getByRole('progressbar', { name: 'Pages scanned' })).toHaveAttribute('aria-valuenow', '30');
    expect(screen.getByRole('button', { name: 'Scan now' })).toBeDisabled();

    // The history is refetched every 2 s while the scan runs; once completed, its report shows.
    expect(await screen.findByRole('region', { name: 'Findings' }, { timeout: 6_000 })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Scan progress' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Scan now' })).toBeEnabled();
    const pollsWhenDone = polls;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(polls).toBe(pollsWhenDone);
  });

  it('shows the findings first, then every item with its classification and where it was seen', async () => {
    stubScans({ history: [latestReport] });
    renderInApp(<CookieScanTab websiteId="w1" />);
    const findings = await screen.findByRole('region', { name: 'Findings' });
    const items = await screen.findByRole('region', { name: 'Cookies and storage' });
    expect(findings.compareDocumentPosition(items) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    // The list's own entries (each also lists its pages).
    const entries = [...within(findings).getByRole('list', { name: 'Findings' }).children] as HTMLElement[];
    expect(entries).toHaveLength(2);
    const first = entries[0]!;
    expect(within(first).getByText('Critical')).toBeInTheDocument();
    expect(within(first).getByText('Set before consent')).toBeInTheDocument();
    expect(within(first).getByText(gaBeforeConsent.message)).toBeInTheDocument();
    expect(within(first).getByText('Seen on 12 pages')).toBeInTheDocument();
    expect(within(first).getByText('https://www.example.com/menu')).not.toBeVisible();
    await userEvent.setup().click(within(first).getByText('Seen on 12 pages'));
    expect(within(first).getByText('https://www.example.com/menu')).toBeVisible();
    expect(within(first).getByText('and 10 more pages')).toBeInTheDocument();
    expect(within(findings).getByText('Low')).toBeInTheDocument();

    const rows = within(within(items).getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent))).toEqual([
      ['Name', 'Kind', 'Purpose', 'Provider', 'Expiry', 'First seen on', 'Seen'],
      [
        '_ga.example.com',
        'CookieFirst party',
        'AnalyticsSet your purpose',
        'Google Analytics',
        '2 years',
        '/www.example.com',
        'Before choice: seenAfter Accept: seenAfter Reject: not seen',
      ],
      [
        'cart_id.example.com',
        'CookieFirst party',
        'UnclassifiedSet your purpose',
        '—',
        'Until Jun 7, 2024',
        '/shopwww.example.com',
        'Before choice: seenAfter Accept: seenAfter Reject: seen',
      ],
    ]);
    expect(within(items).getByText(/1 is Unclassified/)).toBeInTheDocument();
    expect(within(items).getByText(/applies from the next scan/)).toBeInTheDocument();
  });

  it("assigns the owner's purpose to an Unclassified item and lists it", async () => {
    const { requests } = stubScans({ history: [latestReport] });
    renderInApp(<CookieScanTab websiteId="w1" />);
    const select = await screen.findByRole('combobox', { name: 'Your purpose for cart_id' });
    await waitFor(() => expect(select).toBeEnabled());
    expect(select).toHaveTextContent('Set your purpose');
    const user = userEvent.setup();
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Necessary' }));

    expect(await screen.findByText('Purpose saved')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST')).toEqual([
      expect.objectContaining({ url: '/api/websites/w1/item-purposes', body: { kind: 'cookie', name: 'cart_id', purpose: 'necessary' } }),
    ]);
    expect(screen.getByRole('combobox', { name: 'Your purpose for cart_id' })).toHaveTextContent('Yours: Necessary');
    expect(screen.getByRole('combobox', { name: 'Your purpose for cart_id' })).toHaveAccessibleDescription('From the next scan');
    const listed = screen.getByRole('region', { name: 'Your purposes' });
    expect(within(listed).getByRole('listitem')).toHaveTextContent('cart_id (Cookie): Necessary');
  });

  it("shows the owner's purpose an item has as applied, and clears it back to the database", async () => {
    const owned: ScanReport = { ...latestReport, items: [item('cart_id', { purpose: 'necessary', source: 'owner' })] };
    const { requests } = stubFetch({
      'GET /api/websites/w1/scans': () => jsonResponse([owned]),
      'GET /api/scans/s2': () => jsonResponse(owned),
      'GET /api/websites/w1/item-purposes': () => jsonResponse([{ kind: 'cookie', name: 'cart_id', purpose: 'necessary' }]),
      'POST /api/websites/w1/item-purposes': () => jsonResponse([]),
    });
    renderInApp(<CookieScanTab websiteId="w1" />);
    const select = await screen.findByRole('combobox', { name: 'Your purpose for cart_id' });
    await waitFor(() => expect(select).toHaveTextContent('Yours: Necessary'));
    expect(screen.getByText('Necessary (yours)')).toBeInTheDocument();
    expect(screen.queryByText('From the next scan')).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Not set' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Your purpose for cart_id' })).toHaveTextContent('Set your purpose'));
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ kind: 'cookie', name: 'cart_id', purpose: null });
    expect(screen.getByText('From the next scan')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Your purposes' })).not.toBeInTheDocument();
  });

  it("shows a failed scan's reason", async () => {
    stubScans({
      history: [summary('s3', { status: 'failed', completedAt: null, pagesScanned: null, truncated: null, findingCount: 0, failureReason: 'https://www.example.com/ did not answer within 15 seconds.' })],
    });
    renderInApp(<CookieScanTab websiteId="w1" />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The last scan failed');
    expect(alert).toHaveTextContent('https://www.example.com/ did not answer within 15 seconds.');
    expect(screen.getByRole('button', { name: 'Scan now' })).toBeEnabled();
    expect(screen.queryByRole('region', { name: 'Findings' })).not.toBeInTheDocument();
  });

  it('lists the history and what changed since the previous completed scan', async () => {
    const failed = summary('s3', { status: 'failed', requestedAt: '2024-05-09T10:00:00.000Z', completedAt: null, pagesScanned: null, truncated: null, findingCount: 0, failureReason: 'No answer.' });
    stubScans({ history: [failed, latestReport, previousReport] });
    renderInApp(<CookieScanTab websiteId="w1" />);

    const history = await screen.findByRole('region', { name: 'Scan history' });
    const rows = within(history).getAllByRole('row').slice(1);
    expect(rows.map((row) => [...row.querySelectorAll('td')].slice(1).map((cell) => cell.textContent))).toEqual([
      ['FailedNo answer.', '—', '—'],
      ['Completed', '12', '2'],
      ['Completed', '12', '2'],
    ]);

    const changes = await screen.findByRole('region', { name: 'What changed' });
    const section = (name: RegExp) => within(changes).getByRole('region', { name });
    await waitFor(() => expect(section(/^New findings/)).toHaveTextContent(cartNotDeclared.message));
    expect(section(/^New findings/)).not.toHaveTextContent(gaBeforeConsent.message);
    expect(section(/^Resolved findings/)).toHaveTextContent(bannerMissing.message);
    expect(section(/^New cookies and storage/)).toHaveTextContent('cart_idCookie · Unclassified');
    expect(section(/^Gone cookies and storage/)).toHaveTextContent('_fbpCookie · Marketing');
  });
});
