// The settings form as data (issue 28): what a save sends, which fields block it and how many
// unsaved changes there are in which sections — one per field, per row of a list and per banner text,
// counted by value, so a field typed back to its saved value (or only respaced) is no change.
import { describe, expect, it } from 'vitest';
import type { WebsiteSettings } from './queries';
import { checkSettingsForm, getUnsavedSections, toForm, type SettingsForm } from './settings-form-model';
import { formatSectionList } from './settings-sections';

const saved: WebsiteSettings = {
  retentionMonths: 24,
  ipAddressMode: 'truncated',
  bannerPosition: 'bottom',
  bannerTheme: 'light',
  policyVersion: '1',
  privacyPolicyUrl: null,
  purposes: ['analytics', 'marketing'],
  services: [{ purpose: 'analytics', name: 'Plausible', description: 'Counts visits', cookies: ['_pk_id'] }],
  consentLifetimeMonths: 12,
  defaultLanguage: 'en',
  textOverrides: { fr: { acceptAll: 'Tout accepter' } },
  regionRules: { 'US-CA': 'opt_in' },
  forceOptIn: false,
  scanIntervalDays: 30,
  identification: false,
  identificationForms: 'all',
  monthlyResolutionCap: null,
  keepPageQueryStrings: false,
};

function check(edit: (form: SettingsForm) => Partial<SettingsForm>, fields: 'all' | 'privacy' = 'all') {
  const form = toForm(saved);
  return checkSettingsForm({ ...form, ...edit(form) }, saved, fields);
}

describe('checkSettingsForm', () => {
  it('finds nothing to save, block or count in the saved settings', () => {
    expect(check(() => ({}))).toEqual({ change: {}, blockers: [], unsaved: [] });
  });

  it('counts nothing for a field typed back to its saved value or only respaced', () => {
    expect(
      check((form) => ({
        retentionMonths: ' 24 ',
        policyVersion: '1 ',
        services: form.services.map((row) => ({ ...row, name: ' Plausible ', cookies: '_pk_id, ' })),
        regionRules: form.regionRules.map((row) => ({ ...row, region: 'us-ca' })),
        textOverrides: { fr: { acceptAll: 'Tout accepter ' } },
      })),
    ).toEqual({ change: {}, blockers: [], unsaved: [] });
  });

  it('counts one change per field, per row and per banner text, in the sections they are in', () => {
    const result = check((form) => ({
      bannerTheme: 'dark',
      services: [
        ...form.services.map((row) => ({ ...row, description: 'Counts visits, no cookies' })),
        { key: 7, purpose: 'marketing', name: 'Meta Pixel', description: '', cookies: '_fbp' },
      ],
      textOverrides: { fr: { acceptAll: 'Accepter' }, de: { title: 'Hallo', notice: 'Wir nutzen Cookies' } },
      regionRules: [],
    }));
    expect(result.unsaved.map((entry) => entry.field)).toEqual([
      'bannerTheme',
      'services',
      'services',
      'textOverrides',
      'textOverrides',
      'textOverrides',
      'regionRules',
    ]);
    expect(formatSectionList(getUnsavedSections(result.unsaved))).toBe('Appearance, Purposes & services, Languages & texts and Regions');
    expect(result.blockers).toEqual([]);
    expect(Object.keys(result.change)).toEqual(['bannerTheme', 'services', 'textOverrides', 'regionRules']);
  });

  it('counts an invalid field as unsaved and as blocking, and leaves it out of the change', () => {
    const result = check((form) => ({
      consentLifetimeMonths: '25',
      bannerPosition: 'top',
      services: [{ ...form.services[0]!, name: '' }],
      textOverrides: { fr: { acceptAll: 'Tout accepter' }, de: { notice: '  ' } },
    }));
    expect(result.change).toEqual({ bannerPosition: 'top' });
    expect(result.blockers).toEqual([
      { section: 'purposes', field: 'service-0-name', label: 'Name of service 1', problem: 'Enter the name of the service.' },
      {
        section: 'languages',
        field: 'text-de-notice',
        label: 'Banner notice (German)',
        problem: 'Enter a text, or leave it empty to use ours.',
        language: 'de',
      },
      { section: 'lifetime', field: 'consentLifetimeMonths', label: 'Consent lifetime (months)', problem: 'Enter a whole number of months from 1 to 24.' },
    ]);
    expect(getUnsavedSections(result.unsaved)).toEqual(['appearance', 'purposes', 'languages', 'lifetime']);
    expect(result.unsaved).toHaveLength(4);
  });

  it('needs a purpose asked: the switch of Lead identification counts', () => {
    expect(check(() => ({ purposes: [] })).blockers).toEqual([
      { section: 'purposes', field: 'purposes', label: 'Consent purposes', problem: 'Choose at least one purpose to ask for.' },
    ]);
    const withIdentification = check(() => ({ purposes: [], identification: true }));
    expect(withIdentification.blockers).toEqual([]);
    expect(withIdentification.change).toEqual({ purposes: ['identification'], identification: true });
    expect(getUnsavedSections(withIdentification.unsaved)).toEqual(['purposes', 'identification']);
  });

  it('in Settings → Privacy, counts and sends only the privacy fields', () => {
    const result = check(() => ({ retentionMonths: '12', bannerTheme: 'dark', keepPageQueryStrings: true }), 'privacy');
    expect(result.change).toEqual({ retentionMonths: 12, keepPageQueryStrings: true });
    expect(result.unsaved.map((entry) => entry.field)).toEqual(['retentionMonths', 'keepPageQueryStrings']);
    expect(check(() => ({ retentionMonths: '0', consentLifetimeMonths: '99' }), 'privacy').blockers).toEqual([
      { section: 'lifetime', field: 'retentionMonths', label: 'Retention period (months)', problem: 'Enter a whole number of months from 1 to 120.' },
    ]);
  });
});
