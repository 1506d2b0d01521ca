// The Cookie scan tab's Scheduled scans card: the saved interval (default 30 days when the api names
// none), validation of what the owner types, and Save PATCHing only scanIntervalDays and refreshing
// only that website's settings query.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { websiteSettingsQueryOptions } from '../website-settings/queries';
import { checkScanIntervalDays, scanIntervalProblem } from './queries';
import { ScanScheduleCard } from './scan-schedule-card';

const baseSettings = {
  retentionMonths: 12,
  ipAddressMode: 'truncated',
  bannerPosition: 'bottom',
  bannerTheme: 'light',
  policyVersion: '1',
  privacyPolicyUrl: null,
  purposes: ['analytics'],
  services: [],
  consentLifetimeMonths: 12,
  defaultLanguage: 'en',
  textOverrides: {},
  regionRules: {},
  forceOptIn: false,
};

function stubSettings(initial: Record<string, unknown>) {
  let settings = { ...baseSettings, ...initial };
  return stubFetch({
    'GET /api/websites/w1/settings': () => jsonResponse(settings),
    'PATCH /api/websites/w1/settings': (request) => {
      settings = { ...settings, ...(request.body as { scanIntervalDays: number }) };
      return jsonResponse(settings);
    },
  });
}

const card = () => screen.getByRole('region', { name: 'Scheduled scans' });
const daysInput = () => within(card()).getByLabelText('Scan automatically every');
const saveButton = () => within(card()).getByRole('button', { name: 'Save' });

describe('checkScanIntervalDays', () => {
  it('accepts whole numbers from 0 to 365 only', () => {
    expect(checkScanIntervalDays('0')).toEqual({ ok: true, value: 0 });
    expect(checkScanIntervalDays(' 365 ')).toEqual({ ok: true, value: 365 });
    for (const input of ['', '366', '-1', '1.5', '7e1', 'seven']) expect(checkScanIntervalDays(input)).toEqual({ ok: false, problem: scanIntervalProblem });
  });
});

describe('the Scheduled scans card', () => {
  it('shows the saved interval and says what 0 does, when scheduled scans run and who is emailed', async () => {
    stubSettings({ scanIntervalDays: 14 });
    renderInApp(<ScanScheduleCard websiteId="w1" />);
    await waitFor(() => expect(daysInput()).toHaveValue(14));
    expect(card()).toHaveTextContent('0 turns scheduled scans off');
    expect(card()).toHaveTextContent('only once the snippet has sent something');
    expect(card()).toHaveTextContent('emailed when one finds something new');
    expect(saveButton()).toBeDisabled();
  });

  it('starts from 30 days when the settings name no interval', async () => {
    stubSettings({});
    renderInApp(<ScanScheduleCard websiteId="w1" />);
    await waitFor(() => expect(daysInput()).toHaveValue(30));
  });

  it('saves only scanIntervalDays and refreshes only this website’s settings', async () => {
    const { requests } = stubSettings({ scanIntervalDays: 30 });
    const { queryClient } = renderInApp(<ScanScheduleCard websiteId="w1" />);
    queryClient.setQueryData(['websites', 'w2', 'settings'], { ...baseSettings, scanIntervalDays: 30 });
    queryClient.setQueryData(['websites', 'w1'], { id: 'w1' });
    await waitFor(() => expect(daysInput()).toHaveValue(30));
    const user = userEvent.setup();
    await user.clear(daysInput());
    await user.type(daysInput(), '7');
    await user.click(saveButton());

    expect(await screen.findByText('Schedule saved')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'PATCH')).toEqual([expect.objectContaining({ url: '/api/websites/w1/settings', body: { scanIntervalDays: 7 } })]);
    expect(requests.filter((request) => request.method === 'GET').map((request) => request.url)).toEqual(['/api/websites/w1/settings', '/api/websites/w1/settings']);
    expect(queryClient.getQueryData(websiteSettingsQueryOptions('w1').queryKey)).toMatchObject({ scanIntervalDays: 7 });
    expect(queryClient.getQueryState(['websites', 'w2', 'settings'])?.isInvalidated).toBe(false);
    expect(queryClient.getQueryState(['websites', 'w1'])?.isInvalidated).toBe(false);
    expect(daysInput()).toHaveValue(7);
    expect(saveButton()).toBeDisabled();
  });

  it('names the allowed range for values out of range or not whole, and does not save them', async () => {
    const { requests } = stubSettings({ scanIntervalDays: 30 });
    renderInApp(<ScanScheduleCard websiteId="w1" />);
    await waitFor(() => expect(daysInput()).toHaveValue(30));
    const user = userEvent.setup();
    for (const typed of ['366', '2.5', '-1']) {
      await user.clear(daysInput());
      await user.type(daysInput(), typed);
      expect(within(card()).getByRole('alert')).toHaveTextContent('Enter a whole number of days from 0 to 365.');
      expect(daysInput()).toHaveAttribute('aria-invalid', 'true');
      expect(saveButton()).toBeDisabled();
    }
    await user.clear(daysInput());
    expect(within(card()).getByRole('alert')).toHaveTextContent('Enter a whole number of days from 0 to 365.');
    await user.type(daysInput(), '0');
    expect(within(card()).queryByRole('alert')).toBeNull();
    expect(saveButton()).toBeEnabled();
    expect(requests.filter((request) => request.method === 'PATCH')).toEqual([]);
  });

  it("shows the api's reason when it refuses the value", async () => {
    stubSettings({ scanIntervalDays: 30 });
    renderInApp(<ScanScheduleCard websiteId="w1" />);
    await waitFor(() => expect(daysInput()).toHaveValue(30));
    // The form checks the range itself; a refusal for another reason still reaches the owner.
    const user = userEvent.setup();
    await user.clear(daysInput());
    await user.type(daysInput(), '365');
    stubFetch({ 'PATCH /api/websites/w1/settings': () => jsonResponse({ error: { code: 'VALIDATION', message: 'Scheduled scans are not available' } }, 400) });
    await user.click(saveButton());
    await waitFor(() => expect(within(card()).getByRole('alert')).toHaveTextContent('Scheduled scans are not available'));
    expect(daysInput()).toHaveValue(365);
  });
});
