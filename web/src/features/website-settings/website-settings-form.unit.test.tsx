// The website settings form (issue 5, spec sections 5 and 9): it fills from the saved settings,
// accepts a retention period only as a whole number from 1 to 120, sends only what changed, and
// reports the outcome in a toast. With every setting it also edits the banner's languages (default
// language, the owner's own wording) and the rules by region. Issue 28: the banner settings in six
// sections with an index, a save bar that says what is unsaved and which field blocks saving, and a
// question before leaving with unsaved changes.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Link } from '@tanstack/react-router';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { bannerTextsRoute } from './banner-texts.test-helper';
import {
  checkConsentLifetimeMonths,
  checkCookieNames,
  checkRetentionMonths,
  consentLifetimeProblem,
  parseCookieNames,
  retentionProblem,
} from './validation';
import type { WebsiteSettings } from './queries';
import { getPurposeChange, WebsiteSettingsForm } from './website-settings-form';

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

/** Nothing differs from the saved settings: no save bar, so no Save to grey out. */
function expectNoSaveBar() {
  expect(screen.queryByRole('region', { name: 'Unsaved changes' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
}

/** Save is off, and says why: the bar names the field and its problem, as a link to the field. */
function expectSaveBlockedBy(label: string, problem: string, more = '') {
  const save = screen.getByRole('button', { name: 'Save Changes' });
  expect(save).toBeDisabled();
  expect(save).toHaveAccessibleDescription(`Fix before saving: ${label}: ${problem}${more}`);
  expect(within(screen.getByRole('region', { name: 'Unsaved changes' })).getByRole('button', { name: `${label}: ${problem}` })).toBeInTheDocument();
}

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
    expectNoSaveBar();
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
    expectSaveBlockedBy('Retention period (months)', 'Enter a whole number of months from 1 to 120.');
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
    // Settings → Privacy has no sections to name.
    expect(within(screen.getByRole('region', { name: 'Unsaved changes' })).getByText('1 unsaved change')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'PATCH')).toEqual([
      expect.objectContaining({ url: '/api/websites/w1/settings', body: { retentionMonths: 12 }, credentials: 'include' }),
    ]);
    expect(queryClient.getQueryData(['websites', 'w1', 'settings'])).toMatchObject({ retentionMonths: 12 });
    // Retention is an input of the recommendation rules.
    expect(queryClient.getQueryState(['recommendations', 'all'])?.isInvalidated).toBe(true);
    expectNoSaveBar();
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

  it('keeps the query strings of page addresses when the owner turns it on (off by default)', async () => {
    const { requests } = stubFetch({
      'GET /api/websites/w1/settings': () => jsonResponse(saved),
      'PATCH /api/websites/w1/settings': () => jsonResponse({ ...saved, keepPageQueryStrings: true }),
    });
    renderInApp(<WebsiteSettingsForm websiteId="w1" fields="privacy" />);
    const user = userEvent.setup();
    const keep = await screen.findByRole('switch', { name: 'Keep query strings of page addresses' });
    expect(keep).not.toBeChecked();
    await user.click(keep);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PATCH')?.body).toEqual({ keepPageQueryStrings: true });
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
      fireEvent.change(url, { target: { value: 'javascript:alert(1)' } });
      expect(screen.getByText('Enter a full http or https address, such as https://example.com/privacy.')).toBeInTheDocument();
      expectSaveBlockedBy('Privacy policy URL', 'Enter a full http or https address, such as https://example.com/privacy.');

      fireEvent.change(url, { target: { value: 'https://shop.example/privacy' } });
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
      expectNoSaveBar();
    });

    it('needs at least one purpose and a lifetime from 1 to 24 months before Save is on', async () => {
      const { requests } = stubFetch({ 'GET /api/websites/w1/settings': () => jsonResponse(saved) });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const purposes = await screen.findByRole('group', { name: 'Consent purposes' });
      const user = userEvent.setup();
      for (const name of ['Preferences', 'Analytics', 'Marketing']) await user.click(within(purposes).getByRole('checkbox', { name }));
      expect(within(purposes).getByText('Choose at least one purpose to ask for.')).toBeInTheDocument();
      expectSaveBlockedBy('Consent purposes', 'Choose at least one purpose to ask for.');

      // Identification counts as a purpose asked, switched on under Lead identification.
      await user.click(screen.getByRole('switch', { name: 'Identify visitors who allow it' }));
      expect(within(purposes).getByRole('checkbox', { name: 'Identification' })).toBeChecked();
      expect(within(purposes).queryByText('Choose at least one purpose to ask for.')).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();

      const lifetime = screen.getByLabelText('Consent lifetime (months)');
      await user.clear(lifetime);
      await user.type(lifetime, '25');
      expect(lifetime).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByText('Enter a whole number of months from 1 to 24.')).toBeInTheDocument();
      expectSaveBlockedBy('Consent lifetime (months)', 'Enter a whole number of months from 1 to 24.');
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
      expectSaveBlockedBy('Name of service 1', 'Enter the name of the service.');

      await user.click(within(service).getByRole('button', { name: 'Remove service 1' }));
      expect(screen.queryByRole('group', { name: 'Service 1' })).not.toBeInTheDocument();
      expectNoSaveBar();
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
      await user.click(screen.getByRole('switch', { name: 'Identify visitors who allow it' }));

      await user.click(screen.getByRole('button', { name: 'Add service' }));
      const first = screen.getByRole('group', { name: 'Service 1' });
      await user.click(within(first).getByRole('combobox', { name: 'Purpose' }));
      await user.click(await screen.findByRole('option', { name: 'Marketing' }));
      // Names are trimmed and cookie lists parsed before they are sent.
      fireEvent.change(within(first).getByLabelText('Name'), { target: { value: '  Meta Pixel ' } });
      fireEvent.change(within(first).getByLabelText('Cookies'), { target: { value: '_fbp, ,_fbc,' } });
      await user.click(screen.getByRole('button', { name: 'Add service' }));
      const second = screen.getByRole('group', { name: 'Service 2' });
      fireEvent.change(within(second).getByLabelText('Name'), { target: { value: 'Plausible' } });
      fireEvent.change(within(second).getByLabelText('Description'), { target: { value: 'Counts visits' } });
      fireEvent.change(screen.getByLabelText('Consent lifetime (months)'), { target: { value: '6' } });
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));

      expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
      expect(requests.filter((request) => request.method === 'PATCH').map((request) => request.body)).toEqual([
        {
          // The checklist's purposes, and the switch beside them: never one guessed from the other.
          purposes: ['analytics', 'marketing'],
          identification: true,
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
      expectNoSaveBar();
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

  describe('lead identification', () => {
    function stubSettings(settings: object = saved) {
      return stubFetch({
        'GET /api/websites/w1/settings': () => jsonResponse(settings),
        'PATCH /api/websites/w1/settings': (request) => jsonResponse({ ...settings, ...(request.body as object) }),
      });
    }

    it('shows Identification in the purposes only as the switch sets it, never to tick on its own', async () => {
      stubSettings({ ...saved, purposes: ['analytics', 'identification'], identification: true, identificationForms: 'marked' });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const purposes = await screen.findByRole('group', { name: 'Consent purposes' });
      const checkbox = within(purposes).getByRole('checkbox', { name: 'Identification' });
      expect(checkbox).toBeChecked();
      expect(checkbox).toBeDisabled();
      const section = screen.getByRole('region', { name: 'Lead identification' });
      expect(section).toHaveAttribute('aria-labelledby', 'lead-identification');
      expect(within(section).getByRole('switch', { name: 'Identify visitors who allow it' })).toBeChecked();
      expect(within(section).getByRole('radio', { name: 'Only forms marked data-consentry-identify' })).toBeChecked();
      expect(
        within(section).getByRole('radio', { name: 'All forms with an email field, except those marked data-consentry-identify="off"' }),
      ).not.toBeChecked();
      expect(within(section).getByText(/Consentry\?\.identify\('ada@example\.com'/)).toBeInTheDocument();
      expectNoSaveBar();
    });

    it('reads Lead identification from the purposes when the api sends no flag', async () => {
      stubSettings({ ...saved, purposes: ['marketing', 'identification'] });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      expect(await screen.findByRole('switch', { name: 'Identify visitors who allow it' })).toBeChecked();
      expect(screen.getByRole('radio', { name: /^All forms with an email field/ })).toBeChecked();
      expectNoSaveBar();
    });

    it('turns it on with the switch alone, saying that every visitor is asked again', async () => {
      const { requests } = stubSettings();
      const { queryClient } = renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      queryClient.setQueryData(['widget-config', 'embed-1', 'en'], { texts: {} });
      const user = userEvent.setup();
      const toggle = await screen.findByRole('switch', { name: 'Identify visitors who allow it' });
      expect(toggle).not.toBeChecked();
      await user.click(toggle);
      expect(screen.getByText('Saving adds identification to the purposes the banner asks for, so every visitor is asked again.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));
      expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
      expect(requests.filter((request) => request.method === 'PATCH').map((request) => request.body)).toEqual([{ identification: true }]);
      // The banner's purposes changed: the widget config the Installation preview reads is stale.
      expect(queryClient.getQueryState(['widget-config', 'embed-1', 'en'])?.isInvalidated).toBe(true);
    });

    it('saves the forms mode on its own', async () => {
      const { requests } = stubSettings({ ...saved, identification: true, purposes: [...saved.purposes, 'identification'] });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const user = userEvent.setup();
      await user.click(await screen.findByRole('radio', { name: 'Only forms marked data-consentry-identify' }));
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));
      expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
      expect(requests.filter((request) => request.method === 'PATCH').map((request) => request.body)).toEqual([{ identificationForms: 'marked' }]);
    });

    it('turning it off says nobody is identified from then on', async () => {
      const { requests } = stubSettings({ ...saved, identification: true, purposes: [...saved.purposes, 'identification'] });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const user = userEvent.setup();
      await user.click(await screen.findByRole('switch', { name: 'Identify visitors who allow it' }));
      expect(
        screen.getByText('Saving removes identification from the banner, so every visitor is asked again and nobody is identified from then on.'),
      ).toBeInTheDocument();
      expect(within(screen.getByRole('group', { name: 'Consent purposes' })).getByRole('checkbox', { name: 'Identification' })).not.toBeChecked();
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));
      expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
      expect(requests.filter((request) => request.method === 'PATCH').map((request) => request.body)).toEqual([{ identification: false }]);
    });
  });

  describe('getPurposeChange', () => {
    const base: Pick<WebsiteSettings, 'purposes' | 'identification'> = { purposes: ['analytics', 'identification'], identification: true };

    it('sends nothing when neither the checklist nor the switch changed', () => {
      expect(getPurposeChange({ purposes: ['analytics'], identification: true }, base)).toEqual({});
    });

    it('sends the checklist without identification, with the switch beside it', () => {
      expect(getPurposeChange({ purposes: ['analytics', 'marketing'], identification: true }, base)).toEqual({
        purposes: ['analytics', 'marketing'],
        identification: true,
      });
    });

    it('sends the switch alone when only it changed', () => {
      expect(getPurposeChange({ purposes: ['analytics'], identification: false }, base)).toEqual({ identification: false });
    });

    it('asks for identification alone as the one purpose, since the api needs one', () => {
      expect(getPurposeChange({ purposes: [], identification: true }, base)).toEqual({ purposes: ['identification'], identification: true });
    });
  });

  describe('languages and rules by region', () => {
    const withLanguages = {
      ...saved,
      defaultLanguage: 'en',
      textOverrides: { fr: { acceptAll: 'Tout accepter' } },
      regionRules: { 'US-CA': 'opt_in' },
      forceOptIn: false,
    };

    function stubSettings(settings: object = withLanguages, patch?: (request: { body: unknown }) => Response) {
      return stubFetch({
        ...bannerTextsRoute,
        'GET /api/websites/w1/settings': () => jsonResponse(settings),
        'PATCH /api/websites/w1/settings': patch ?? ((request) => jsonResponse({ ...settings, ...(request.body as object) })),
      });
    }

    async function choose(combobox: string, option: string, user = userEvent.setup()) {
      await user.click(screen.getByRole('combobox', { name: combobox }));
      await user.click(await screen.findByRole('option', { name: option }));
    }

    it('fills the default language, the own wording, the rules and force opt-in from the saved settings', async () => {
      stubSettings({
        ...withLanguages,
        defaultLanguage: 'de',
        textOverrides: { de: { centreTitle: 'Ihre Wahl bei {company}' } },
        regionRules: { 'US-CA': 'opt_in', GB: 'notice_only' },
        forceOptIn: true,
      });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const languages = await screen.findByRole('region', { name: 'Languages & texts' });
      expect(within(languages).getByRole('combobox', { name: 'Default language' })).toHaveTextContent('German (Deutsch)');
      // The editor opens on the default language.
      expect(within(languages).getByRole('combobox', { name: 'Language to edit' })).toHaveTextContent('German (Deutsch)');
      expect(await within(languages).findByLabelText('Preference centre title')).toHaveValue('Ihre Wahl bei {company}');
      expect(within(languages).getByLabelText('Banner title')).toHaveAttribute('placeholder', '{company} verwendet Cookies');

      const regions = screen.getByRole('region', { name: 'Regions' });
      expect(within(regions).getByRole('switch', { name: 'Ask for consent everywhere (opt-in)' })).toBeChecked();
      expect(within(regions).getByText(/opt-out in US states with privacy laws, such as California/)).toBeInTheDocument();
      expect(within(regions).getByLabelText('Region 1')).toHaveValue('US-CA');
      expect(within(regions).getByRole('combobox', { name: 'Rule for region 1' })).toHaveTextContent('Opt-in');
      expect(within(regions).getByLabelText('Region 2')).toHaveValue('GB');
      expect(within(regions).getByRole('combobox', { name: 'Rule for region 2' })).toHaveTextContent('Notice only');
      expectNoSaveBar();
    });

    it('saves a new default language and a German text with the whole map of own wording', async () => {
      const { requests } = stubSettings();
      const { queryClient } = renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      queryClient.setQueryData(['widget-config', 'embed-1', 'de'], { texts: {} });
      queryClient.setQueryData(['recommendations', 'all'], []);
      const languages = await screen.findByRole('region', { name: 'Languages & texts' });
      expect(await within(languages).findByLabelText('Banner title')).toHaveAttribute('placeholder', '{company} uses cookies');
      const user = userEvent.setup();
      await choose('Default language', 'German (Deutsch)', user);
      await choose('Language to edit', 'German (Deutsch)', user);
      // Spaces around the text are trimmed before it is sent.
      fireEvent.change(await within(languages).findByLabelText('Preference centre title'), { target: { value: '  Ihre Wahl ' } });
      expect(within(languages).getByText('Your own wording: German (1), French (1).')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));

      expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
      expect(requests.filter((request) => request.method === 'PATCH').map((request) => request.body)).toEqual([
        { defaultLanguage: 'de', textOverrides: { de: { centreTitle: 'Ihre Wahl' }, fr: { acceptAll: 'Tout accepter' } } },
      ]);
      // The Installation preview shows the new wording; the recommendations do not read it.
      expect(queryClient.getQueryState(['widget-config', 'embed-1', 'de'])?.isInvalidated).toBe(true);
      expect(queryClient.getQueryState(['recommendations', 'all'])?.isInvalidated).toBe(false);
      expect(within(languages).getByLabelText('Preference centre title')).toHaveValue('Ihre Wahl');
      expectNoSaveBar();
    });

    it('warns, without blocking, when a text leaves out a placeholder ours has', async () => {
      stubSettings();
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const title = await screen.findByLabelText('Banner title');
      await userEvent.setup().type(title, 'We use cookies');
      expect(screen.getByText('Our text has {company}, which the banner fills in; yours leaves it out.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    });

    it('keeps Save off while a text is blank or longer than 600 characters', async () => {
      const { requests } = stubSettings();
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const notice = await screen.findByLabelText('Banner notice');
      const user = userEvent.setup();
      await user.type(notice, '  ');
      expect(screen.getByText('Enter a text, or leave it empty to use ours.')).toBeInTheDocument();
      expectSaveBlockedBy('Banner notice (English)', 'Enter a text, or leave it empty to use ours.');

      await user.clear(notice);
      await user.click(notice);
      await user.paste('x'.repeat(601));
      expect(screen.getByText('Use at most 600 characters (this text has 601).')).toBeInTheDocument();
      expect(notice).toHaveAttribute('aria-invalid', 'true');
      expectSaveBlockedBy('Banner notice (English)', 'Use at most 600 characters (this text has 601).');

      // Clearing a text goes back to ours: the saved map is unchanged, so there is nothing to save.
      await user.click(screen.getByRole('button', { name: 'Use our text for Banner notice' }));
      expectNoSaveBar();
      expect(requests.filter((request) => request.method === 'PATCH')).toEqual([]);
    });

    it('adds, checks and removes region rules and saves them with force opt-in', async () => {
      const { requests } = stubSettings();
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const regions = await screen.findByRole('region', { name: 'Regions' });
      const user = userEvent.setup();
      const save = () => screen.getByRole('button', { name: 'Save Changes' });

      await user.click(within(regions).getByRole('button', { name: 'Add region' }));
      expect(within(regions).getByRole('combobox', { name: 'Rule for region 2' })).toHaveTextContent('Opt-in');
      expect(within(regions).getByText('Enter EU, a country code such as GB or a US state such as US-CA.')).toBeInTheDocument();
      expectSaveBlockedBy('Region 2', 'Enter EU, a country code such as GB or a US state such as US-CA.');
      await user.type(within(regions).getByLabelText('Region 2'), 'usa');
      expect(within(regions).getByLabelText('Region 2')).toHaveAttribute('aria-invalid', 'true');
      await user.clear(within(regions).getByLabelText('Region 2'));
      await user.type(within(regions).getByLabelText('Region 2'), 'us-ca');
      expect(within(regions).getByText('This region already has a rule above.')).toBeInTheDocument();
      expectSaveBlockedBy('Region 2', 'This region already has a rule above.');
      await user.clear(within(regions).getByLabelText('Region 2'));
      await user.type(within(regions).getByLabelText('Region 2'), 'us-tx');
      await choose('Rule for region 2', 'Notice only', user);

      await user.click(within(regions).getByRole('button', { name: 'Add region' }));
      await user.type(within(regions).getByLabelText('Region 3'), 'EU');
      await choose('Rule for region 3', 'Opt-out', user);
      await user.click(within(regions).getByRole('button', { name: 'Remove region 1' }));
      expect(within(regions).getByLabelText('Region 1')).toHaveValue('us-tx');
      await user.click(within(regions).getByRole('switch', { name: 'Ask for consent everywhere (opt-in)' }));
      expect(save()).toBeEnabled();
      await user.click(save());

      expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
      expect(requests.filter((request) => request.method === 'PATCH').map((request) => request.body)).toEqual([
        { regionRules: { EU: 'opt_out', 'US-TX': 'notice_only' }, forceOptIn: true },
      ]);
      expect(within(regions).getByLabelText('Region 1')).toHaveValue('EU');
      expect(within(regions).getByLabelText('Region 2')).toHaveValue('US-TX');
    });

    it("shows the api's message beside Save when it refuses the change (400)", async () => {
      stubSettings(withLanguages, () =>
        jsonResponse({ error: { code: 'INVALID_REQUEST', message: 'Invalid request: regionRules.ZZ: Expected EU, a country code (GB) or a subdivision (US-CA)' } }, 400),
      );
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const regions = await screen.findByRole('region', { name: 'Regions' });
      const user = userEvent.setup();
      await user.click(within(regions).getByRole('button', { name: 'Add region' }));
      await user.type(within(regions).getByLabelText('Region 2'), 'ZZ');
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));

      expect(await screen.findByText('Not saved: Invalid request: regionRules.ZZ: Expected EU, a country code (GB) or a subdivision (US-CA)')).toHaveAttribute(
        'role',
        'alert',
      );
      expect(screen.getByText('Error')).toBeInTheDocument();
      // Changing the form clears the message.
      await user.type(within(regions).getByLabelText('Region 2'), 'X');
      expect(screen.queryByText(/^Not saved:/)).not.toBeInTheDocument();
    });

    it('is not part of the privacy variant', async () => {
      stubSettings();
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="privacy" />);
      await screen.findByLabelText('Retention period (months)');
      expect(screen.queryByRole('region', { name: 'Languages & texts' })).not.toBeInTheDocument();
      expect(screen.queryByRole('region', { name: 'Regions' })).not.toBeInTheDocument();
    });
  });
});

describe('the banner settings in sections (issue 28)', () => {
  const settings = {
    ...saved,
    defaultLanguage: 'en',
    textOverrides: { fr: { acceptAll: 'Tout accepter' } },
    regionRules: { 'US-CA': 'opt_in' },
    forceOptIn: false,
    identification: false,
    identificationForms: 'all',
    monthlyResolutionCap: null,
    keepPageQueryStrings: false,
  };

  function stubSettings() {
    return stubFetch({
      ...bannerTextsRoute,
      'GET /api/websites/w1/settings': () => jsonResponse(settings),
      'PATCH /api/websites/w1/settings': (request) => jsonResponse({ ...settings, ...(request.body as object) }),
    });
  }

  const bar = () => screen.getByRole('region', { name: 'Unsaved changes' });
  const patches = (requests: { method: string; body: unknown }[]) => requests.filter((request) => request.method === 'PATCH').map((request) => request.body);

  it('shows each field in its section, and the index jumps to a section', async () => {
    stubSettings();
    renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
    const index = await screen.findByRole('navigation', { name: 'Banner settings sections' });
    expect(within(index).getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Appearance',
      'Purposes & services',
      'Languages & texts',
      'Regions',
      'Consent lifetime',
      'Identification',
    ]);
    const fieldsBySection: Record<string, string[]> = {
      Appearance: ['Banner position', 'Banner theme', 'Privacy policy URL'],
      'Purposes & services': ['Necessary', 'Preferences', 'Analytics', 'Marketing', 'Identification'],
      'Languages & texts': ['Default language', 'Language to edit'],
      Regions: ['Ask for consent everywhere (opt-in)', 'Region 1', 'Rule for region 1'],
      'Consent lifetime': ['Consent lifetime (months)', 'Policy version', 'Retention period (months)'],
      Identification: [
        'Keep IP addresses truncated',
        'Keep query strings of page addresses',
        'Identify visitors who allow it',
        'Only forms marked data-consentry-identify',
        'Monthly resolution cap',
      ],
    };
    for (const [section, labels] of Object.entries(fieldsBySection)) {
      const region = screen.getByRole('region', { name: section });
      for (const label of labels) expect(within(region).getByLabelText(label)).toBeInTheDocument();
    }
    expect(within(screen.getByRole('region', { name: 'Purposes & services' })).getByRole('button', { name: 'Add service' })).toBeInTheDocument();
    expect(await within(screen.getByRole('region', { name: 'Languages & texts' })).findByLabelText('Banner title')).toBeInTheDocument();
    // Lead identification keeps its anchor, which the Leads screen links to.
    expect(within(screen.getByRole('region', { name: 'Identification' })).getByRole('region', { name: 'Lead identification' })).toHaveAttribute(
      'aria-labelledby',
      'lead-identification',
    );
    expectNoSaveBar();

    fireEvent.click(within(index).getByRole('link', { name: 'Consent lifetime' }));
    expect(screen.getByRole('heading', { name: 'Consent lifetime' })).toHaveFocus();
  });

  it('counts the unsaved changes and names their sections, in the bar and the index', async () => {
    stubSettings();
    renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
    const user = userEvent.setup();
    fireEvent.change(await screen.findByLabelText('Privacy policy URL'), { target: { value: 'https://shop.example/privacy' } });
    expect(within(bar()).getByText('1 unsaved change in Appearance')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Ask for consent everywhere (opt-in)' }));
    expect(within(bar()).getByText('2 unsaved changes in Appearance and Regions')).toBeInTheDocument();
    const index = screen.getByRole('navigation', { name: 'Banner settings sections' });
    expect(within(index).getByRole('link', { name: 'Appearance (unsaved changes)' })).toBeInTheDocument();
    expect(within(index).getByRole('link', { name: 'Regions (unsaved changes)' })).toBeInTheDocument();
    expect(within(index).getByRole('link', { name: 'Consent lifetime' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();

    // A field typed back to its saved value is no change.
    fireEvent.change(screen.getByLabelText('Privacy policy URL'), { target: { value: '' } });
    expect(within(bar()).getByText('1 unsaved change in Regions')).toBeInTheDocument();
  });

  it('says which field blocks saving and why; a click on it focuses the field', async () => {
    const { requests } = stubSettings();
    renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
    const url = await screen.findByLabelText('Privacy policy URL');
    const lifetime = screen.getByLabelText('Consent lifetime (months)');
    fireEvent.change(lifetime, { target: { value: '25' } });
    fireEvent.change(url, { target: { value: 'shop.example' } });
    expect(within(bar()).getByText('2 unsaved changes in Appearance and Consent lifetime')).toBeInTheDocument();
    // The first in the form's order is named, and how many more there are.
    expectSaveBlockedBy('Privacy policy URL', 'Enter a full http or https address, such as https://example.com/privacy.', ' (1 more field to fix)');
    const index = screen.getByRole('navigation', { name: 'Banner settings sections' });
    expect(within(index).getByRole('link', { name: 'Consent lifetime (a field to fix)' })).toBeInTheDocument();

    lifetime.focus();
    fireEvent.click(within(bar()).getByRole('button', { name: /^Privacy policy URL: / }));
    expect(url).toHaveFocus();

    fireEvent.change(url, { target: { value: 'https://shop.example/privacy' } });
    expectSaveBlockedBy('Consent lifetime (months)', 'Enter a whole number of months from 1 to 24.');
    fireEvent.click(within(bar()).getByRole('button', { name: /^Consent lifetime \(months\): / }));
    expect(lifetime).toHaveFocus();
    // Enter in another field goes to the field to fix too, and sends nothing.
    fireEvent.submit(url);
    expect(lifetime).toHaveFocus();
    expect(patches(requests)).toEqual([]);
  });

  it('opens a banner text of another language to fix it', async () => {
    stubSettings();
    renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
    const languages = await screen.findByRole('region', { name: 'Languages & texts' });
    fireEvent.change(await within(languages).findByLabelText('Banner notice'), { target: { value: '  ' } });
    const user = userEvent.setup();
    await user.click(within(languages).getByRole('combobox', { name: 'Language to edit' }));
    await user.click(await screen.findByRole('option', { name: 'French (Français)' }));
    expect(await within(languages).findByRole('list', { name: 'Texts in French' })).toBeInTheDocument();
    expectSaveBlockedBy('Banner notice (English)', 'Enter a text, or leave it empty to use ours.');

    fireEvent.click(within(bar()).getByRole('button', { name: /^Banner notice \(English\): / }));
    expect(await within(languages).findByRole('list', { name: 'Texts in English' })).toBeInTheDocument();
    await waitFor(() => expect(within(languages).getByLabelText('Banner notice')).toHaveFocus());
    expect(within(languages).getByLabelText('Banner notice')).toHaveAttribute('lang', 'en');
  });

  it('saves the changes of several sections in one PATCH of only those, confirms once, and the bar goes', async () => {
    const { requests } = stubSettings();
    const { queryClient } = renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
    const user = userEvent.setup();
    fireEvent.change(await screen.findByLabelText('Privacy policy URL'), { target: { value: 'https://shop.example/privacy' } });
    await user.click(screen.getByRole('switch', { name: 'Ask for consent everywhere (opt-in)' }));
    fireEvent.change(screen.getByLabelText('Retention period (months)'), { target: { value: '12' } });
    await user.click(screen.getByRole('switch', { name: 'Keep IP addresses truncated' }));
    expect(within(bar()).getByText('4 unsaved changes in Appearance, Regions, Consent lifetime and Identification')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    expect(patches(requests)).toEqual([{ privacyPolicyUrl: 'https://shop.example/privacy', forceOptIn: true, retentionMonths: 12, ipAddressMode: 'full' }]);
    expect(screen.getAllByText('Your website settings have been saved.')).toHaveLength(1);
    expectNoSaveBar();
    expect(screen.queryByText(/^Not saved/)).not.toBeInTheDocument();
    expect(queryClient.getQueryData(['websites', 'w1', 'settings'])).toMatchObject({ retentionMonths: 12, forceOptIn: true });
    expect(screen.getByLabelText('Privacy policy URL')).toHaveValue('https://shop.example/privacy');
  });

  it('Discard puts the saved values back and sends nothing', async () => {
    const { requests } = stubSettings();
    renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
    const user = userEvent.setup();
    const lifetime = await screen.findByLabelText('Consent lifetime (months)');
    fireEvent.change(lifetime, { target: { value: '25' } });
    await user.click(screen.getByRole('button', { name: 'Add region' }));
    await user.click(screen.getByRole('switch', { name: 'Identify visitors who allow it' }));
    expect(within(bar()).getByText('3 unsaved changes in Regions, Consent lifetime and Identification')).toBeInTheDocument();

    await user.click(within(bar()).getByRole('button', { name: 'Discard' }));
    expectNoSaveBar();
    expect(lifetime).toHaveValue('12');
    expect(lifetime).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByLabelText('Region 2')).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Identify visitors who allow it' })).not.toBeChecked();
    expect(patches(requests)).toEqual([]);
  });

  describe('leaving with unsaved changes', () => {
    function renderWithLink() {
      return renderInApp(
        <>
          <WebsiteSettingsForm websiteId="w1" fields="all" />
          <Link to="/dashboard">Dashboard</Link>
        </>,
      );
    }

    it('asks first: Stay keeps the changes, Leave without saving leaves', async () => {
      const { requests } = stubSettings();
      renderWithLink();
      const user = userEvent.setup();
      fireEvent.change(await screen.findByLabelText('Policy version'), { target: { value: '2' } });
      await user.click(screen.getByRole('link', { name: 'Dashboard' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
      expect(dialog).toHaveTextContent('1 unsaved change in Consent lifetime. If you leave this page now, it is lost.');
      await user.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      expect(screen.queryByTestId('navigated-away')).not.toBeInTheDocument();
      expect(screen.getByLabelText('Policy version')).toHaveValue('2');

      await user.click(screen.getByRole('link', { name: 'Dashboard' }));
      await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave without saving' }));
      expect(await screen.findByTestId('navigated-away')).toBeInTheDocument();
      expect(patches(requests)).toEqual([]);
    });

    it('does not ask once the changes are saved', async () => {
      stubSettings();
      renderWithLink();
      const user = userEvent.setup();
      fireEvent.change(await screen.findByLabelText('Policy version'), { target: { value: '2' } });
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));
      expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
      await user.click(screen.getByRole('link', { name: 'Dashboard' }));
      expect(await screen.findByTestId('navigated-away')).toBeInTheDocument();
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    });

    it('has the browser ask before closing or reloading the tab, until the changes are discarded', async () => {
      stubSettings();
      renderWithLink();
      const unload = () => {
        const event = new Event('beforeunload', { cancelable: true });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      };
      const version = await screen.findByLabelText('Policy version');
      expect(unload()).toBe(false);
      fireEvent.change(version, { target: { value: '2' } });
      expect(unload()).toBe(true);
      fireEvent.click(within(bar()).getByRole('button', { name: 'Discard' }));
      expect(unload()).toBe(false);
      await userEvent.setup().click(screen.getByRole('link', { name: 'Dashboard' }));
      expect(await screen.findByTestId('navigated-away')).toBeInTheDocument();
    });
  });
});
