// The website settings form (issue 5, spec sections 5 and 9): it fills from the saved settings,
// accepts a retention period only as a whole number from 1 to 120, sends only what changed, and
// reports the outcome in a toast. With every setting it also edits the banner's languages (default
// language, the owner's own wording) and the rules by region.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
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
      await user.click(screen.getByRole('switch', { name: 'Identify visitors who allow it' }));

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
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    });

    it('reads Lead identification from the purposes when the api sends no flag', async () => {
      stubSettings({ ...saved, purposes: ['marketing', 'identification'] });
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      expect(await screen.findByRole('switch', { name: 'Identify visitors who allow it' })).toBeChecked();
      expect(screen.getByRole('radio', { name: /^All forms with an email field/ })).toBeChecked();
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
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
      const languages = await screen.findByRole('region', { name: 'Languages' });
      expect(within(languages).getByRole('combobox', { name: 'Default language' })).toHaveTextContent('German (Deutsch)');
      // The editor opens on the default language.
      expect(within(languages).getByRole('combobox', { name: 'Language to edit' })).toHaveTextContent('German (Deutsch)');
      expect(await within(languages).findByLabelText('Preference centre title')).toHaveValue('Ihre Wahl bei {company}');
      expect(within(languages).getByLabelText('Banner title')).toHaveAttribute('placeholder', '{company} verwendet Cookies');

      const regions = screen.getByRole('region', { name: 'Rules by region' });
      expect(within(regions).getByRole('switch', { name: 'Ask for consent everywhere (opt-in)' })).toBeChecked();
      expect(within(regions).getByText(/opt-out in US states with privacy laws, such as California/)).toBeInTheDocument();
      expect(within(regions).getByLabelText('Region 1')).toHaveValue('US-CA');
      expect(within(regions).getByRole('combobox', { name: 'Rule for region 1' })).toHaveTextContent('Opt-in');
      expect(within(regions).getByLabelText('Region 2')).toHaveValue('GB');
      expect(within(regions).getByRole('combobox', { name: 'Rule for region 2' })).toHaveTextContent('Notice only');
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    });

    it('saves a new default language and a German text with the whole map of own wording', async () => {
      const { requests } = stubSettings();
      const { queryClient } = renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      queryClient.setQueryData(['widget-config', 'embed-1', 'de'], { texts: {} });
      queryClient.setQueryData(['recommendations', 'all'], []);
      const languages = await screen.findByRole('region', { name: 'Languages' });
      expect(await within(languages).findByLabelText('Banner title')).toHaveAttribute('placeholder', '{company} uses cookies');
      const user = userEvent.setup();
      await choose('Default language', 'German (Deutsch)', user);
      await choose('Language to edit', 'German (Deutsch)', user);
      await user.type(await within(languages).findByLabelText('Preference centre title'), '  Ihre Wahl ');
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
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
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
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();

      await user.clear(notice);
      await user.click(notice);
      await user.paste('x'.repeat(601));
      expect(screen.getByText('Use at most 600 characters (this text has 601).')).toBeInTheDocument();
      expect(notice).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();

      // Clearing a text goes back to ours: the saved map is unchanged, so there is nothing to save.
      await user.click(screen.getByRole('button', { name: 'Use our text for Banner notice' }));
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
      expect(requests.filter((request) => request.method === 'PATCH')).toEqual([]);
    });

    it('adds, checks and removes region rules and saves them with force opt-in', async () => {
      const { requests } = stubSettings();
      renderInApp(<WebsiteSettingsForm websiteId="w1" fields="all" />);
      const regions = await screen.findByRole('region', { name: 'Rules by region' });
      const user = userEvent.setup();
      const save = screen.getByRole('button', { name: 'Save Changes' });

      await user.click(within(regions).getByRole('button', { name: 'Add region' }));
      expect(within(regions).getByRole('combobox', { name: 'Rule for region 2' })).toHaveTextContent('Opt-in');
      expect(within(regions).getByText('Enter EU, a country code such as GB or a US state such as US-CA.')).toBeInTheDocument();
      expect(save).toBeDisabled();
      await user.type(within(regions).getByLabelText('Region 2'), 'usa');
      expect(within(regions).getByLabelText('Region 2')).toHaveAttribute('aria-invalid', 'true');
      await user.clear(within(regions).getByLabelText('Region 2'));
      await user.type(within(regions).getByLabelText('Region 2'), 'us-ca');
      expect(within(regions).getByText('This region already has a rule above.')).toBeInTheDocument();
      expect(save).toBeDisabled();
      await user.clear(within(regions).getByLabelText('Region 2'));
      await user.type(within(regions).getByLabelText('Region 2'), 'us-tx');
      await choose('Rule for region 2', 'Notice only', user);

      await user.click(within(regions).getByRole('button', { name: 'Add region' }));
      await user.type(within(regions).getByLabelText('Region 3'), 'EU');
      await choose('Rule for region 3', 'Opt-out', user);
      await user.click(within(regions).getByRole('button', { name: 'Remove region 1' }));
      expect(within(regions).getByLabelText('Region 1')).toHaveValue('us-tx');
      await user.click(within(regions).getByRole('switch', { name: 'Ask for consent everywhere (opt-in)' }));
      expect(save).toBeEnabled();
      await user.click(save);

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
      const regions = await screen.findByRole('region', { name: 'Rules by region' });
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
      expect(screen.queryByRole('region', { name: 'Languages' })).not.toBeInTheDocument();
      expect(screen.queryByRole('region', { name: 'Rules by region' })).not.toBeInTheDocument();
    });
  });
});
