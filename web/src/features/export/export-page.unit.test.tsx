// The export state machine (spec sections 4 and 8): idle → exporting ('Exporting...', disabled) →
// idle, with the success or failure message; Recent Exports lists what the api recorded.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { ExportPage } from './export-page';

const websites = [
  { id: 'w1', name: 'Shop', domain: 'shop.example', isActive: true, embedCode: 'emb_1', createdAt: '2024-05-01T10:00:00Z' },
];

describe('export page', () => {
  let downloads: string[];

  beforeEach(() => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:test'), revokeObjectURL: vi.fn() }));
    downloads = [];
    // jsdom cannot follow a download link; record what would have been saved instead.
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
  });

  it('shows Exporting... while the file is prepared, then reports success and lists the recorded export', async () => {
    const file = deferred<Response>();
    const recorded: unknown[] = [];
    const { requests } = stubFetch({
      'GET /api/websites': () => jsonResponse(websites),
      'GET /api/exports': () => jsonResponse(recorded),
      'GET /api/export/consents': () => file.promise,
    });
    renderInApp(<ExportPage />);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Export Data' }));
    expect(await screen.findByRole('button', { name: 'Exporting...' })).toBeDisabled();
    expect(requests.at(-1)).toMatchObject({ url: '/api/export/consents?format=csv', credentials: 'include' });
    expect(await screen.findByText('No exports yet')).toBeInTheDocument();

    // The api records the export before the download completes.
    recorded.push({ id: 'x1', websiteId: null, format: 'csv', rowCount: 1234, exportedAt: '2024-05-01T12:00:00Z' });
    file.resolve(
      new Response('id,timestamp\n1,2024-05-01', {
        headers: { 'Content-Disposition': 'attachment; filename="consents.csv"' },
      }),
    );
    expect(await screen.findByText('Export successful')).toBeInTheDocument();
    expect(screen.getByText('Your consent data has been downloaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export Data' })).toBeEnabled();
    expect(downloads).toEqual(['consents.csv']);
    const recent = screen.getByRole('region', { name: 'Recent Exports' });
    expect(await within(recent).findByText('All Websites')).toBeInTheDocument();
    expect(within(recent).getByText(/^CSV · 1,234 records · May 1, 2024/)).toBeInTheDocument();
    expect(screen.queryByText('No exports yet')).not.toBeInTheDocument();
  });

  it("lists earlier exports with their website's name and domain", async () => {
    stubFetch({
      'GET /api/websites': () => jsonResponse(websites),
      'GET /api/exports': () =>
        jsonResponse([
          { id: 'x2', websiteId: 'w1', format: 'json', rowCount: 1, exportedAt: '2024-05-02T12:00:00Z' },
          { id: 'x1', websiteId: 'gone', format: 'csv', rowCount: 0, exportedAt: '2024-05-01T12:00:00Z' },
        ]),
    });
    renderInApp(<ExportPage />);
    const recent = await screen.findByRole('region', { name: 'Recent Exports' });
    expect(await within(recent).findByText('Shop (shop.example)')).toBeInTheDocument();
    expect(within(recent).getByText(/^JSON · 1 record · May 2, 2024/)).toBeInTheDocument();
    expect(within(recent).getByText('A removed website')).toBeInTheDocument();
    expect(within(recent).getByText(/^CSV · 0 records/)).toBeInTheDocument();
  });

  it('reports failure and returns to idle', async () => {
    stubFetch({
      'GET /api/websites': () => jsonResponse(websites),
      'GET /api/exports': () => jsonResponse([]),
      'GET /api/export/consents': () => new Response('nope', { status: 500 }),
    });
    renderInApp(<ExportPage />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Export Data' }));

    expect(await screen.findByText('Export failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to export data. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export Data' })).toBeEnabled();
    expect(await screen.findByText('No exports yet')).toBeInTheDocument();
    expect(downloads).toEqual([]);
  });
});
