// The Installation preview's preference centre: it shows the website's widget config in the
// language picked (the website's default first), with the owner's wording as the config carries it,
// a row per purpose asked for with its services, the three buttons, and right to left for Arabic.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithToaster, stubFetch } from '../../test/render';
import { fillBannerText, PreferenceCentrePreview } from './preference-centre-preview';

const germanTexts = {
  centreTitle: 'Ihre Wahl bei {company}',
  centreIntro: 'Wählen Sie, was Sie erlauben möchten.',
  necessary: 'Notwendig',
  necessaryDescription: 'Für den Betrieb der Website nötig.',
  alwaysOn: 'Immer aktiv',
  analytics: 'Statistik',
  analyticsDescription: 'Besuche zählen.',
  marketing: 'Marketing',
  marketingDescription: 'Werbung zeigen.',
  services: 'Dienste und Cookies',
  rejectAll: 'Alle ablehnen',
  save: 'Auswahl speichern',
  acceptAll: 'Alle akzeptieren',
};
const arabicTexts = { ...germanTexts, centreTitle: 'تفضيلات الخصوصية', rejectAll: 'رفض الكل', save: 'حفظ الاختيارات', acceptAll: 'قبول الكل' };

const config = (language: string, texts: Record<string, string>, dir = 'ltr') => ({
  companyName: 'Lighthouse Books',
  primaryColor: '#2563eb',
  privacyPolicyUrl: null,
  purposes: ['analytics', 'marketing'],
  services: [{ purpose: 'analytics', name: 'Plausible', description: 'Counts visits', cookies: ['_pk_id', '_pk_ses'] }],
  language,
  dir,
  texts,
});

describe('fillBannerText', () => {
  it('fills in the company and the purpose as text', () => {
    expect(fillBannerText('{company} uses cookies; {company}!', 'Acme')).toBe('Acme uses cookies; Acme!');
    expect(fillBannerText('Allow {purpose}', 'Acme', 'Analytics')).toBe('Allow Analytics');
    expect(fillBannerText('<b>{company}</b>', '<i>x</i>')).toBe('<b><i>x</i></b>');
    expect(fillBannerText(undefined, 'Acme')).toBe('');
  });
});

describe('the preference centre preview', () => {
  it("shows the website's default language first, then the language picked, right to left for Arabic", async () => {
    const { requests } = stubFetch({
      'GET /api/widget/config/abc12345?lang=ar': () => jsonResponse(config('ar', arabicTexts, 'rtl')),
      'GET /api/widget/config/abc12345': () => jsonResponse(config('de', germanTexts)),
    });
    const { queryClient } = renderWithToaster(<PreferenceCentrePreview embedCode="abc12345" theme="light" />);
    const preview = await screen.findByRole('region', { name: 'Preference centre preview' });
    expect(requests.map((request) => request.url)).toEqual(['/api/widget/config/abc12345']);
    expect(screen.getByRole('combobox', { name: 'Preview language' })).toHaveTextContent('German (Deutsch)');
    expect(preview).toHaveAttribute('dir', 'ltr');
    expect(preview).toHaveAttribute('lang', 'de');
    expect(within(preview).getByRole('heading', { name: 'Ihre Wahl bei Lighthouse Books' })).toBeInTheDocument();
    expect(within(preview).getByText('Wählen Sie, was Sie erlauben möchten.')).toBeInTheDocument();
    expect(within(preview).getByText('Immer aktiv')).toBeInTheDocument();
    // One row per purpose asked for, each with a switch that does nothing.
    const switches = within(preview).getAllByRole('switch');
    expect(switches.map((element) => element.getAttribute('aria-label'))).toEqual(['Statistik', 'Marketing']);
    for (const element of switches) {
      expect(element).toBeDisabled();
      expect(element).not.toBeChecked();
    }
    expect(within(preview).getByText('Besuche zählen.')).toBeInTheDocument();
    expect(within(preview).getByText('Dienste und Cookies (1)')).toBeInTheDocument();
    expect(within(preview).getByText('Plausible').closest('li')).toHaveTextContent('Plausible: Counts visits (_pk_id, _pk_ses)');
    expect(within(preview).getAllByRole('button').map((button) => button.textContent)).toEqual(['Alle ablehnen', 'Auswahl speichern', 'Alle akzeptieren']);
    expect(queryClient.getQueryData(['widget-config', 'abc12345', null])).toMatchObject({ language: 'de' });

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Preview language' }));
    await user.click(await screen.findByRole('option', { name: 'Arabic (العربية)' }));
    expect(await within(preview).findByRole('heading', { name: 'تفضيلات الخصوصية' })).toBeInTheDocument();
    expect(preview).toHaveAttribute('dir', 'rtl');
    expect(within(preview).getAllByRole('button').map((button) => button.textContent)).toEqual(['رفض الكل', 'حفظ الاختيارات', 'قبول الكل']);
    expect(requests.map((request) => request.url)).toEqual(['/api/widget/config/abc12345', '/api/widget/config/abc12345?lang=ar']);
    expect(requests.every((request) => request.credentials === 'include')).toBe(true);
  });

  it("says why when the config cannot be loaded (an inactive website)", async () => {
    stubFetch({
      'GET /api/widget/config/abc12345': () => jsonResponse({ error: { code: 'WEBSITE_INACTIVE', message: 'This website is not active' } }, 403),
    });
    renderWithToaster(<PreferenceCentrePreview embedCode="abc12345" theme="dark" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The preference centre could not be loaded: This website is not active');
  });
});
