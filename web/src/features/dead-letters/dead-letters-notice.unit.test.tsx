// The admins' notice of events set aside: absent while there are none; otherwise the count, each
// event's projection and error, and a Retry that reports what happened and reloads the list.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithToaster, stubFetch } from '../../test/render';
import { DeadLettersNotice } from './dead-letters-notice';
import type { DeadLetter } from './queries';

const letter = (eventId: string): DeadLetter => ({
  projection: 'consent-records',
  eventId,
  eventType: 'ConsentGiven',
  position: 7,
  error: 'invalid input syntax for type uuid: "not-a-website" (SQLSTATE 22P02)',
  attempts: 1,
  firstFailedAt: '2026-11-24T10:00:00.000Z',
  lastFailedAt: '2026-11-24T10:00:00.000Z',
  resolvedAt: null,
});

describe('the dead-letters notice', () => {
  it('shows nothing while no event is set aside', async () => {
    const { requests } = stubFetch({ 'GET /api/admin/dead-letters': () => jsonResponse([]) });
    renderWithToaster(<DeadLettersNotice />);
    await expect.poll(() => requests.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the answer rendered
    expect(screen.queryByRole('region', { name: /could not be projected/ })).toBeNull();
  });

  it('lists the events with their errors, and Retry resolves them', async () => {
    let open = [letter('00000000-0000-4000-8000-000000000001'), letter('00000000-0000-4000-8000-000000000002')];
    const { requests } = stubFetch({
      'GET /api/admin/dead-letters': () => jsonResponse(open),
      'POST /api/admin/dead-letters/retry': () => {
        open = [];
        return jsonResponse({ applied: 2, gone: 0, stillFailing: [] });
      },
    });
    renderWithToaster(<DeadLettersNotice />);
    expect(await screen.findByRole('heading', { name: '2 events could not be projected' })).toBeInTheDocument();
    expect(screen.getAllByText(/SQLSTATE 22P02/)).toHaveLength(2);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Resolved 2 events')).toBeInTheDocument();
    await expect.poll(() => screen.queryByRole('region', { name: /could not be projected/ })).toBeNull();
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});
