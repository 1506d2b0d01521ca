// The export state machine (spec sections 4 and 8): idle → exporting ('Exporting...', disabled) →
// idle, with the success or failure message.
import { screen } from '@testing-library/react';
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

  it('shows Exporting... while the file is prepared, then reports success', async () => {
    const file = deferred<Response>();
    const { requests } = stubFetch({
      'GET /api/websites': () => jsonResponse(websites),
      'GET /api/export/consents': () => file.promise,
    });
    renderInApp(<ExportPage />);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Export Data' }));
    expect(await screen.findByRole('button', { name: 'Exporting...' })).toBeDisabled();
    expect(requests.at(-1)).toMatchObject({ url: '/api/export/consents?format=csv', credentials: 'include' });

    file.resolve(
      new Response('id,timestamp\n1,2024-05-01', {
        headers: { 'Content-Disposition': 'attachment; filename="consents.csv"' },
      }),
    );
    expect(await screen.findByText('Export successful')).toBeInTheDocument();
    expect(screen.getByText('Your consent data has been downloaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export Data' })).toBeEnabled();
    expect(screen.getByText('consents.csv')).toBeInTheDocument();
    expect(downloads).toEqual(['consents.csv']);
    expect(screen.queryByText('No exports yet')).not.toBeInTheDocument();
  });

  it('reports failure and returns to idle', async () => {
    stubFetch({
      'GET /api/websites': () => jsonResponse(websites),
      'GET /api/export/consents': () => new Response('nope', { status: 500 }),
    });
    renderInApp(<ExportPage />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Export Data' }));

    expect(await screen.findByText('Export failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to export data. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export Data' })).toBeEnabled();
    expect(screen.getByText('No exports yet')).toBeInTheDocument();
    expect(downloads).toEqual([]);
  });
});
