// The notification count: consents of the last 24 hours among the latest 50 records (spec section 9);
// the bell's badge counts what this viewer has not seen: opening the menu clears it, a newer consent
// brings it back, and what was seen is remembered across a reload of the page (this browser).
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderWithToaster, stubFetch } from '../../test/render';
import { recentConsentsQueryOptions, type ConsentRecord } from '../consents/queries';
import { countRecentActivity, countUnseen, describeCapAlert, formatRecentCount, NotificationsMenu, recentActivityLimit } from './notifications-menu';

const now = Date.parse('2024-05-20T12:00:00Z');
const at = (iso: string): ConsentRecord => ({
  id: iso,
  websiteId: 'w1',
  timestamp: iso,
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

describe('recent activity count', () => {
  it('counts the records of the last 24 hours only', () => {
    expect(countRecentActivity([at('2024-05-20T11:00:00Z'), at('2024-05-19T12:00:00Z'), at('2024-05-19T11:59:59Z')], now)).toBe(2);
  });

  it("reads '50+' when every one of the 50 records read is that recent", () => {
    expect(formatRecentCount(49)).toBe('49');
    expect(formatRecentCount(50)).toBe('50+');
  });
});

describe('resolution cap alerts', () => {
  const alert = { websiteId: 'w1', websiteName: 'shop.example.com', cap: 1000, resolutions: 812 };

  it('says how far into its cap a website is from 80 %', () => {
    expect(describeCapAlert({ ...alert, level: 'near' })).toBe('shop.example.com is at 81 % of its monthly resolution cap (812 of 1,000)');
  });

  it('says that new visitors are not identified once the cap is reached', () => {
    expect(describeCapAlert({ ...alert, resolutions: 1000, level: 'reached' })).toBe(
      'shop.example.com reached its monthly resolution cap (1,000 of 1,000): new visitors are not identified until next month',
    );
  });
});

describe('the unseen count on the bell', () => {
  const records = [at('2024-05-20T11:00:00Z'), at('2024-05-20T09:00:00Z'), at('2024-05-18T09:00:00Z')];

  it('counts the records newer than the newest one seen', () => {
    expect(countUnseen(records, '2024-05-20T09:00:00Z', now)).toBe(1);
    expect(countUnseen(records, '2024-05-20T11:00:00Z', now)).toBe(0);
  });

  it('counts the last 24 hours before the menu was ever opened, not every consent ever', () => {
    expect(countUnseen(records, null, now)).toBe(2);
  });
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
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
    consents = [at(minutesAgo(5)), at(minutesAgo(60)), at(minutesAgo(60 * 30))];
    stub();
    const { queryClient, unmount } = renderWithToaster(<NotificationsMenu viewer="user:u1" onOpenDashboard={() => undefined} />);
    const bell = await screen.findByRole('button', { name: 'Notifications: 2 new' });
    await userEvent.click(bell);
    await userEvent.keyboard('{Escape}');
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeTruthy();
    expect(screen.queryByTestId('unseen-count')).toBeNull();

    consents = [at(minutesAgo(1)), ...consents];
    await queryClient.invalidateQueries({ queryKey: recentConsentsQueryOptions(recentActivityLimit).queryKey });
    await waitFor(() => expect(screen.getByTestId('unseen-count').textContent).toBe('1'));

    // Another page load in the same browser remembers what was seen; another viewer has their own.
    unmount();
    renderWithToaster(<NotificationsMenu viewer="user:u1" onOpenDashboard={() => undefined} />);
    expect(await screen.findByRole('button', { name: 'Notifications: 1 new' })).toBeTruthy();
  });

  it("keeps each viewer's seen apart", async () => {
    consents = [at(minutesAgo(5)), at(minutesAgo(10))];
    stub();
    window.localStorage.setItem('consentry:notifications-seen:user:u1', consents[0]!.timestamp);
    renderWithToaster(<NotificationsMenu viewer="admin:root" onOpenDashboard={() => undefined} />);
    expect(await screen.findByRole('button', { name: 'Notifications: 2 new' })).toBeTruthy();
  });
});
