// The website settings form (issue 5, spec sections 5 and 9): it fills from the saved settings,
// accepts a retention period only as a whole number from 1 to 120, sends only what changed, and
// reports the outcome in a toast.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { checkRetentionMonths, retentionProblem } from './validation';
import { WebsiteSettingsForm } from './website-settings-form';

const saved = { retentionMonths: 24, ipAddressMode: 'truncated', bannerPosition: 'bottom', bannerTheme: 'light', policyVersion: '1', privacyPolicyUrl: null };

describe('checkRetentionMonths', () => {
  it.each(['1', '12', '24', '120', ' 36 '])('accepts %j', (input) => {
    expect(checkRetentionMonths(input)).toEqual({ ok: true, value: Number(input.trim()) });
  });

  it.each(['', '0', '121', '2.5', '-3', '1e2', 'abc', '12 months'])('refuses %j', (input) => {
    expect(checkRetentionMonths(input)).toEqual({ ok: false, problem: retentionProblem });
  });
});

describe('website settings form', () => {
  it('fills from the saved settings; Save is off until something valid changed', async () => {
    stubFetch({ 'GET /api/websites/w1/settings': () => jsonResponse(saved) });
    renderInApp(<WebsiteSettingsForm websiteId="w1" fields="privacy" />);
    const retention = await screen.findByLabelText('Retention period (months)');
    expect(retention).toHaveValue('24');
    expect(screen.getByRole('switch', { name: 'Keep IP addresses truncated' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    // The privacy variant offers no banner settings.
    expect(screen.queryByLabelText('Privacy policy URL')).not.toBeInTheDocument();
  });

  it.each(['0', '121', '2.5', 'abc', ''])('refuses a retention period of %j and keeps Save off', async (input) => {
    const { requests } = stubFetch({ 'GET /api/websites/w1/settings': () => jsonResponse(saved) });
    renderInApp(<WebsiteSettingsForm websiteId="w1" fields="privacy" />);
    const retention = await screen.findByLabelText('Retention period (months)');
    const user = userEvent.setup();
    await user.clear(retention);
    if (input) await user.type(retention, input);
    expect(retention).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Enter a whole number of months from 1 to 120.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    await user.type(retention, '{Enter}');
    expect(requests.filter((request) => request.method === 'PATCH')).toEqual([]);
  });

  it("saves 12 months: sends only the retention period and shows 'Settings Updated'", async () => {
    const { requests } = stubFetch({
      'GET /api/websites/w1/settings': () => jsonResponse(saved),
      'PATCH /api/websites/w1/settings': () => jsonResponse({ ...saved, retentionMonths: 12 }),
    });
    const { queryClient } = renderInApp(<WebsiteSettingsForm websiteId="w1" fields="privacy" />);
    queryClient.setQueryData(['recommendations', 'all'], []);
    const retention = await screen.findByLabelText('Retention period (months)');
    const user = userEvent.setup();
    await user.clear(retention);
    await user.type(retention, '12');
    expect(screen.getByText(/^Consent data older than this is deleted/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'PATCH')).toEqual([
      expect.objectContaining({ url: '/api/websites/w1/settings', body: { retentionMonths: 12 }, credentials: 'include' }),
    ]);
    expect(queryClient.getQueryData(['websites', 'w1', 'settings'])).toMatchObject({ retentionMonths: 12 });
    // Retention is an input of the recommendation rules.
    expect(queryClient.getQueryState(['recommendations', 'all'])?.isInvalidated).toBe(true);
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
  });

  it('warns when the period is longer than the privacy text promises', async () => {
    stubFetch({ 'GET /api/websites/w1/settings': () => jsonResponse(saved) });
    renderInApp(<WebsiteSettingsForm websiteId="w1" fields="privacy" />);
    const retention = await screen.findByLabelText('Retention period (months)');
    const user = userEvent.setup();
    await user.clear(retention);
    await user.type(retention, '36');
    expect(screen.getByText('Longer than the 24 months (2 years) the privacy text promises.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  });

  it('stores full IP addresses when the switch is turned off', async () => {
    const { requests } = stubFetch({
      'GET /api/websites/w1/settings': () => jsonResponse(saved),
      'PATCH /api/websites/w1/settings': () => jsonResponse({ ...saved, ipAddressMode: 'full' }),
    });
    renderInApp(<WebsiteSettingsForm websiteId="w1" fields="privacy" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: 'Keep IP addresses truncated' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PATCH')?.body).toEqual({ ipAddressMode: 'full' });
  });

  it("shows 'Error' with the api's reason when the save is refused", async () => {
    stubFetch({
      'GET /api/websites/w1/settings': () => jsonResponse(saved),
      'PATCH /api/websites/w1/settings': () => jsonResponse({ error: { code: 'WEBSITE_NOT_FOUND', message: 'Website not found' } }, 404),
    });
    renderInApp(<WebsiteSettingsForm websiteId="w1" fields="privacy" />);
    const retention = await screen.findByLabelText('Retention period (months)');
    const user = userEvent.setup();
    await user.clear(retention);
    await user.type(retention, '6');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to update website settings: Website not found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  });

  describe('with every setting (the website detail)', () => {
    it('checks the privacy policy URL and sends the banner defaults that changed', async () => {
      const { requests } = stubFetch({
        'GET /api/websites/w1/settings': () => jsonResponse(saved),
        'PATCH /api/websites/w1/settings': (request) => jsonResponse({ ...saved, ...(request.body as object) }),
      });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const url = await screen.findByLabelText('Privacy policy URL');
      expect(url).toHaveAttribute('placeholder', 'https://example.com/privacy');
      const user = userEvent.setup();
      await user.type(url, 'javascript:alert(1)');
      expect(screen.getByText('Enter a full http or https address, such as https://example.com/privacy.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();

      await user.clear(url);
      await user.type(url, 'https://shop.example/privacy');
      await user.click(screen.getByRole('combobox', { name: 'Banner position' }));
      await user.click(await screen.findByRole('option', { name: 'Top' }));
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));
      expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
      expect(requests.find((request) => request.method === 'PATCH')?.body).toEqual({
        bannerPosition: 'top',
        privacyPolicyUrl: 'https://shop.example/privacy',
      });
    });
  });
});
