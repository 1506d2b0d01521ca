// The website settings form (issue 5, spec sections 5 and 9): it fills from the saved settings,
// accepts a retention period only as a whole number from 1 to 120, sends only what changed, and
// reports the outcome in a toast.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import {
  checkConsentLifetimeMonths,
  checkCookieNames,
  checkRetentionMonths,
  consentLifetimeProblem,
  parseCookieNames,
  retentionProblem,
} from './validation';
import { WebsiteSettingsForm } from './website-settings-form';

const saved = {
  retentionMonths: 24,
  ipAddressMode: 'truncated',
  bannerPosition: 'bottom',
  bannerTheme: 'light',
  policyVersion: '1',
  privacyPolicyUrl: null,
  purposes: ['preferences', 'analytics', 'marketing'],
  services: [],
  consentLifetimeMonths: 12,
};

describe('checkRetentionMonths', () => {
  it.each(['1', '12', '24', '120', ' 36 '])('accepts %j', (input) => {
    expect(checkRetentionMonths(input)).toEqual({ ok: true, value: Number(input.trim()) });
  });

  it.each(['', '0', '121', '2.5', '-3', '1e2', 'abc', '12 months'])('refuses %j', (input) => {
    expect(checkRetentionMonths(input)).toEqual({ ok: false, problem: retentionProblem });
  });
});

describe('checkConsentLifetimeMonths', () => {
  it.each(['1', '6', '12', '24', ' 18 '])('accepts %j', (input) => {
    expect(checkConsentLifetimeMonths(input)).toEqual({ ok: true, value: Number(input.trim()) });
  });

  it.each(['', '0', '25', '2.5', '-1', 'a year'])('refuses %j', (input) => {
    expect(checkConsentLifetimeMonths(input)).toEqual({ ok: false, problem: consentLifetimeProblem });
  });
});

describe('cookie names', () => {
  it('reads names separated by commas, trimmed, without blanks', () => {
    expect(parseCookieNames(' _ga, _gid ,,_gcl_au, ')).toEqual(['_ga', '_gid', '_gcl_au']);
    expect(parseCookieNames('  ')).toEqual([]);
  });

  it('refuses more than 50 names or a name longer than 100 characters', () => {
    expect(checkCookieNames(Array.from({ length: 50 }, (_, index) => `c${index}`).join(','))).toMatchObject({ ok: true });
    expect(checkCookieNames(Array.from({ length: 51 }, (_, index) => `c${index}`).join(','))).toEqual({ ok: false, problem: 'List at most 50 cookies.' });
    expect(checkCookieNames(`_ga, ${'x'.repeat(101)}`)).toEqual({ ok: false, problem: 'Use cookie names of at most 100 characters.' });
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

    it('fills the consent purposes, services and lifetime from the saved settings', async () => {
      stubFetch({
        'GET /api/websites/w1/settings': () =>
          jsonResponse({ ...saved, services: [{ purpose: 'analytics', name: 'Plausible', description: 'Counts visits', cookies: ['_pk_id', '_pk_ses'] }] }),
      });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const purposes = await screen.findByRole('group', { name: 'Consent purposes' });
      expect(within(purposes).getByRole('checkbox', { name: 'Necessary' })).toBeChecked();
      expect(within(purposes).getByRole('checkbox', { name: 'Necessary' })).toBeDisabled();
      expect(within(purposes).getByRole('checkbox', { name: 'Preferences' })).toBeChecked();
      expect(within(purposes).getByRole('checkbox', { name: 'Analytics' })).toBeChecked();
      expect(within(purposes).getByRole('checkbox', { name: 'Marketing' })).toBeChecked();
      expect(within(purposes).getByRole('checkbox', { name: 'Identification' })).not.toBeChecked();
      const service = screen.getByRole('group', { name: 'Service 1' });
      expect(within(service).getByRole('combobox', { name: 'Purpose' })).toHaveTextContent('Analytics');
      expect(within(service).getByLabelText('Name')).toHaveValue('Plausible');
      expect(within(service).getByLabelText('Description')).toHaveValue('Counts visits');
      expect(within(service).getByLabelText('Cookies')).toHaveValue('_pk_id, _pk_ses');
      expect(screen.getByLabelText('Consent lifetime (months)')).toHaveValue('12');
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    });

    it('needs at least one purpose and a lifetime from 1 to 24 months before Save is on', async () => {
      const { requests } = stubFetch({ 'GET /api/websites/w1/settings': () => jsonResponse(saved) });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const purposes = await screen.findByRole('group', { name: 'Consent purposes' });
      const user = userEvent.setup();
      for (const name of ['Preferences', 'Analytics', 'Marketing']) await user.click(within(purposes).getByRole('checkbox', { name }));
      expect(within(purposes).getByText('Choose at least one purpose to ask for.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();

      await user.click(within(purposes).getByRole('checkbox', { name: 'Identification' }));
      expect(within(purposes).queryByText('Choose at least one purpose to ask for.')).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();

      const lifetime = screen.getByLabelText('Consent lifetime (months)');
      await user.clear(lifetime);
      await user.type(lifetime, '25');
      expect(lifetime).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByText('Enter a whole number of months from 1 to 24.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
      expect(requests.filter((request) => request.method === 'PATCH')).toEqual([]);
    });

    it('keeps Save off while a service has no name, and tells why', async () => {
      stubFetch({ 'GET /api/websites/w1/settings': () => jsonResponse(saved) });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const user = userEvent.setup();
      expect(await screen.findByText('No services listed yet.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Add service' }));
      const service = screen.getByRole('group', { name: 'Service 1' });
      // A new row starts under the first purpose the banner asks for.
      expect(within(service).getByRole('combobox', { name: 'Purpose' })).toHaveTextContent('Preferences');
      expect(within(service).getByText('Enter the name of the service.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();

      await user.click(within(service).getByRole('button', { name: 'Remove service 1' }));
      expect(screen.queryByRole('group', { name: 'Service 1' })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    });

    it('saves the purposes, services and lifetime that changed, without refreshing the recommendations', async () => {
      const { requests } = stubFetch({
        'GET /api/websites/w1/settings': () => jsonResponse(saved),
        'PATCH /api/websites/w1/settings': (request) => jsonResponse({ ...saved, ...(request.body as object) }),
      });
      const { queryClient } = renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      queryClient.setQueryData(['recommendations', 'all'], []);
      queryClient.setQueryData(['websites'], []);
      const purposes = await screen.findByRole('group', { name: 'Consent purposes' });
      const user = userEvent.setup();
      await user.click(within(purposes).getByRole('checkbox', { name: 'Preferences' }));
      await user.click(within(purposes).getByRole('checkbox', { name: 'Identification' }));

      await user.click(screen.getByRole('button', { name: 'Add service' }));
      const first = screen.getByRole('group', { name: 'Service 1' });
      await user.click(within(first).getByRole('combobox', { name: 'Purpose' }));
      await user.click(await screen.findByRole('option', { name: 'Marketing' }));
      await user.type(within(first).getByLabelText('Name'), '  Meta Pixel ');
      await user.type(within(first).getByLabelText('Cookies'), '_fbp, ,_fbc,');
      await user.click(screen.getByRole('button', { name: 'Add service' }));
      const second = screen.getByRole('group', { name: 'Service 2' });
      await user.type(within(second).getByLabelText('Name'), 'Plausible');
      await user.type(within(second).getByLabelText('Description'), 'Counts visits');

      const lifetime = screen.getByLabelText('Consent lifetime (months)');
      await user.clear(lifetime);
      await user.type(lifetime, '6');
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));

      expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
      expect(requests.filter((request) => request.method === 'PATCH').map((request) => request.body)).toEqual([
        {
          purposes: ['analytics', 'marketing', 'identification'],
          services: [
            { purpose: 'marketing', name: 'Meta Pixel', description: '', cookies: ['_fbp', '_fbc'] },
            // Added while Preferences was no longer asked: it starts under the first purpose asked.
            { purpose: 'analytics', name: 'Plausible', description: 'Counts visits', cookies: [] },
          ],
          consentLifetimeMonths: 6,
        },
      ]);
      expect(queryClient.getQueryData(['websites', 'w1', 'settings'])).toMatchObject({ consentLifetimeMonths: 6 });
      // Purposes are no input of the recommendation rules, and the website list did not change.
      expect(queryClient.getQueryState(['recommendations', 'all'])?.isInvalidated).toBe(false);
      expect(queryClient.getQueryState(['websites'])?.isInvalidated).toBe(false);
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
      expect(within(screen.getByRole('group', { name: 'Service 1' })).getByLabelText('Cookies')).toHaveValue('_fbp, _fbc');
    });

    it('says when a service sits under a purpose the banner does not ask for', async () => {
      stubFetch({
        'GET /api/websites/w1/settings': () =>
          jsonResponse({ ...saved, services: [{ purpose: 'marketing', name: 'Meta Pixel', description: '', cookies: ['_fbp'] }] }),
      });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const purposes = await screen.findByRole('group', { name: 'Consent purposes' });
      await userEvent.setup().click(within(purposes).getByRole('checkbox', { name: 'Marketing' }));
      expect(screen.getByText('The banner does not ask for Marketing, so it does not list this service.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    });
  });
});
