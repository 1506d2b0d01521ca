// The bell's badge counts what this viewer has not seen: opening the menu clears it, a newer consent
// brings it back, and what was seen is remembered across a reload of the page (this browser).
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderWithToaster, stubFetch } from '../../test/render';
import type { ConsentRecord } from '../consents/queries';
import { NotificationsMenu, recentActivityLimit } from './notifications-menu';
import { recentConsentsQueryOptions } from '../consents/queries';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const record = (id: string, timestamp: string): ConsentRecord => ({
  id,
  websiteId: 'w1',
  timestamp,
  consentChoice: 'accepted',
  country: null,
  city: null,
  email: null,
  ipAddress: null,
  offeredPurposes: ['analytics'],
  grantedPurposes: ['analytics'],
  method: 'accept_all',
  rule: 'opt_in',
  region: null,
});

let consents: ConsentRecord[] = [];
function stub() {
  return stubFetch({
    'GET /api/consents': () => jsonResponse(consents),
    'GET /api/leads/summary': () => jsonResponse({ capAlerts: [] }),
  });
}

afterEach(() => window.localStorage.clear());

describe('the bell', () => {
  it('counts the unseen, clears when opened, and counts only what came after', async () => {
    consents = [record('c3', minutesAgo(5)), record('c2', minutesAgo(60)), record('c1', minutesAgo(60 * 30))];
    stub();
    const { queryClient, unmount } = renderWithToaster(<NotificationsMenu viewer="user:u1" onOpenDashboard={() => undefined} />);
    const bell = await screen.findByRole('button', { name: 'Notifications: 2 new' });
    await userEvent.click(bell);
    await userEvent.keyboard('{Escape}');
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeTruthy();
    expect(screen.queryByTestId('unseen-count')).toBeNull();

    consents = [record('c4', minutesAgo(1)), ...consents];
    await queryClient.invalidateQueries({ queryKey: recentConsentsQueryOptions(recentActivityLimit).queryKey });
    await waitFor(() => expect(screen.getByTestId('unseen-count').textContent).toBe('1'));

    // Another page load in the same browser remembers what was seen; another viewer has their own.
    unmount();
    renderWithToaster(<NotificationsMenu viewer="user:u1" onOpenDashboard={() => undefined} />);
    expect(await screen.findByRole('button', { name: 'Notifications: 1 new' })).toBeTruthy();
  });

  it("keeps each viewer's seen apart", async () => {
    consents = [record('c2', minutesAgo(5)), record('c1', minutesAgo(10))];
    stub();
    window.localStorage.setItem('consentry:notifications-seen:user:u1', consents[0]!.timestamp);
    renderWithToaster(<NotificationsMenu viewer="admin:root" onOpenDashboard={() => undefined} />);
    expect(await screen.findByRole('button', { name: 'Notifications: 2 new' })).toBeTruthy();
  });
});
