// The website settings form as data: the form's state filled from the saved settings, and what it
// means against them — the PATCH of the settings that changed, the fields that block saving (which
// field, in which section, and why) and the unsaved changes per section, for the save bar. Pure: the
// form (website-settings-form.tsx) renders it; tests check it without a DOM.
import { getEnglishLanguageName, isBannerLanguage, defaultBannerLanguage, bannerLanguages, type BannerLanguage } from '../../lib/banner-languages';
import { sortPurposes, type OptionalPurpose } from '../../lib/purposes';
import type { BannerPosition, BannerTheme } from '../../lib/snippet';
import { bannerTextKeys, bannerTextLabels } from './banner-texts';
import { sameTextOverrides, toTextOverrides, type TextOverrideDrafts } from './language-fields';
import { checkServiceDraft, toServiceDrafts, toServices, type ServiceDraft } from './purpose-fields';
import type { PurposeService, WebsiteSettings, WebsiteSettingsChange } from './queries';
import { checkRegionRuleDrafts, sameRegionRules, toRegionRuleDrafts, toRegionRules, type RegionRuleDraft } from './region-rule-fields';
import type { SettingsSectionId } from './settings-sections';
import {
  checkBannerText,
  checkConsentLifetimeMonths,
  checkMonthlyResolutionCap,
  checkPolicyVersion,
  checkPrivacyPolicyUrl,
  checkPurposes,
  checkRetentionMonths,
  defaultConsentLifetimeMonths,
  defaultIdentificationForms,
  defaultRetentionMonths,
  isIdentificationForms,
  maxRegionRules,
  parseCookieNames,
  type Checked,
  type IdentificationForms,
} from './validation';

/** Which settings the form edits: `privacy` for Settings → Privacy, `all` for a website's Banner tab. */
export type WebsiteSettingsFields = 'privacy' | 'all';

export interface SettingsForm {
  retentionMonths: string;
  keepIpTruncated: boolean;
  bannerPosition: BannerPosition;
  bannerTheme: BannerTheme;
  privacyPolicyUrl: string;
  policyVersion: string;
  purposes: OptionalPurpose[];
  services: ServiceDraft[];
  consentLifetimeMonths: string;
  defaultLanguage: BannerLanguage;
  textOverrides: TextOverrideDrafts;
  regionRules: RegionRuleDraft[];
  forceOptIn: boolean;
  /** Lead identification: the banner offers the identification purpose. */
  identification: boolean;
  identificationForms: IdentificationForms;
  /** The monthly resolution cap as typed; empty: unlimited. */
  monthlyResolutionCap: string;
  keepPageQueryStrings: boolean;
}

/** The section each field of the form sits in. */
export const settingsFieldSections = {
  bannerPosition: 'appearance',
  bannerTheme: 'appearance',
  privacyPolicyUrl: 'appearance',
  purposes: 'purposes',
  services: 'purposes',
  defaultLanguage: 'languages',
  textOverrides: 'languages',
  forceOptIn: 'regions',
  regionRules: 'regions',
  consentLifetimeMonths: 'lifetime',
  policyVersion: 'lifetime',
  retentionMonths: 'lifetime',
  keepIpTruncated: 'identification',
  keepPageQueryStrings: 'identification',
  identification: 'identification',
  identificationForms: 'identification',
  monthlyResolutionCap: 'identification',
} as const satisfies Record<keyof SettingsForm, SettingsSectionId>;

/** The fields of Settings → Privacy; the Banner tab has every field. */
const privacyFields: ReadonlySet<keyof SettingsForm> = new Set(['retentionMonths', 'keepIpTruncated', 'keepPageQueryStrings']);

/** A field that keeps the form from saving: where it is (`field` is its element's data-settings-field), its name and why. */
export interface SettingsBlocker {
  section: SettingsSectionId;
  field: string;
  label: string;
  problem: string;
  /** For a banner text: the language the editor must show before the field exists. */
  language?: BannerLanguage;
}

/** One field (or one row of a list, one banner text) that differs from the saved settings. */
export interface UnsavedChange {
  section: SettingsSectionId;
  field: keyof SettingsForm;
}

export interface SettingsFormCheck {
  /** What a save sends: the valid settings that changed. */
  change: WebsiteSettingsChange;
  /** Invalid fields, in the order the form shows them. */
  blockers: SettingsBlocker[];
  unsaved: UnsavedChange[];
}

/** Whether the saved settings have Lead identification on; an api without the flag tells it by the purposes. */
export function savedIdentification(settings: Pick<WebsiteSettings, 'purposes' | 'identification'>): boolean {
  return settings.identification ?? settings.purposes.includes('identification');
}

function savedIdentificationForms(settings: WebsiteSettings): IdentificationForms {
  return isIdentificationForms(settings.identificationForms) ? settings.identificationForms : defaultIdentificationForms;
}

function savedDefaultLanguage(settings: WebsiteSettings): BannerLanguage {
  return isBannerLanguage(settings.defaultLanguage) ? settings.defaultLanguage : defaultBannerLanguage;
}

/** The purposes of the checklist: every asked purpose but identification, which has its own switch. */
function checklistPurposesOf(purposes: readonly OptionalPurpose[]): OptionalPurpose[] {
  return purposes.filter((purpose) => purpose !== 'identification');
}

/** The purposes the banner asks for: the checklist's, and identification when its switch is on. */
export function getAskedPurposes(form: Pick<SettingsForm, 'purposes' | 'identification'>): OptionalPurpose[] {
  return sortPurposes(form.identification ? [...form.purposes, 'identification'] : form.purposes);
}

/**
 * What a save sends about purposes: the checklist's purposes (identification never among them) with
 * the switch's `identification` beside them whenever either changed, so the api never has to guess
 * one from the other. A banner that asks for identification alone sends it as its only purpose, as
 * the api needs at least one.
 */
export function getPurposeChange(
  form: { purposes: readonly OptionalPurpose[]; identification: boolean },
  saved: Pick<WebsiteSettings, 'purposes' | 'identification'>,
): Partial<Pick<WebsiteSettings, 'purposes' | 'identification'>> {
  const change: Partial<Pick<WebsiteSettings, 'purposes' | 'identification'>> = {};
  const checklist = checklistPurposesOf(form.purposes);
  const purposesChanged = checklist.join() !== checklistPurposesOf(saved.purposes).join();
  if (purposesChanged) {
    change.purposes = checklist.length > 0 ? checklist : form.identification ? ['identification'] : [];
    change.identification = form.identification;
  }
  if (form.identification !== savedIdentification(saved)) change.identification = form.identification;
  return change;
}

export function toForm(settings: WebsiteSettings): SettingsForm {
  return {
    retentionMonths: String(settings.retentionMonths ?? defaultRetentionMonths),
    keepIpTruncated: settings.ipAddressMode !== 'full',
    bannerPosition: settings.bannerPosition,
    bannerTheme: settings.bannerTheme,
    privacyPolicyUrl: settings.privacyPolicyUrl ?? '',
    policyVersion: settings.policyVersion,
    purposes: checklistPurposesOf(settings.purposes),
    services: toServiceDrafts(settings.services),
    consentLifetimeMonths: String(settings.consentLifetimeMonths ?? defaultConsentLifetimeMonths),
    defaultLanguage: savedDefaultLanguage(settings),
    textOverrides: Object.fromEntries(Object.entries(settings.textOverrides ?? {}).map(([language, texts]) => [language, { ...texts }])),
    regionRules: toRegionRuleDrafts(settings.regionRules ?? {}),
    forceOptIn: settings.forceOptIn ?? false,
    identification: savedIdentification(settings),
    identificationForms: savedIdentificationForms(settings),
    monthlyResolutionCap: settings.monthlyResolutionCap == null ? '' : String(settings.monthlyResolutionCap),
    keepPageQueryStrings: settings.keepPageQueryStrings ?? false,
  };
}

/** The saved list as the form would send it, so an untouched list never counts as a change. */
function sameServices(services: readonly PurposeService[], saved: readonly PurposeService[]): boolean {
  return JSON.stringify(services) === JSON.stringify(toServices(toServiceDrafts(saved)) ?? saved);
}

/** Rows of a keyed list that were added, removed or edited: one change each. */
function countRowChanges<T extends { key: number }>(rows: readonly T[], savedRows: readonly T[], same: (row: T, saved: T) => boolean): number {
  const savedByKey = new Map(savedRows.map((row) => [row.key, row]));
  const keys = new Set(rows.map((row) => row.key));
  const addedOrEdited = rows.filter((row) => {
    const saved = savedByKey.get(row.key);
    return saved === undefined || !same(row, saved);
  }).length;
  return addedOrEdited + savedRows.filter((row) => !keys.has(row.key)).length;
}

function sameServiceDraft(row: ServiceDraft, saved: ServiceDraft): boolean {
  return (
    row.purpose === saved.purpose &&
    row.name.trim() === saved.name.trim() &&
    row.description.trim() === saved.description.trim() &&
    parseCookieNames(row.cookies).join() === parseCookieNames(saved.cookies).join()
  );
}

function sameRegionRuleDraft(row: RegionRuleDraft, saved: RegionRuleDraft): boolean {
  return row.rule === saved.rule && row.region.trim().toUpperCase() === saved.region.trim().toUpperCase();
}

/** Banner texts (language and key) whose wording differs from the saved wording. */
function countTextChanges(drafts: TextOverrideDrafts, saved: TextOverrideDrafts): number {
  const normalise = (input: string | undefined) => {
    if (input === undefined) return null;
    const checked = checkBannerText(input);
    return checked.ok ? checked.value : input;
  };
  let count = 0;
  for (const language of bannerLanguages) {
    for (const key of bannerTextKeys) {
      if (normalise(drafts[language]?.[key]) !== normalise(saved[language]?.[key])) count += 1;
    }
  }
  return count;
}

/** Whether a typed field differs from the saved one: by value when both are valid, else as typed. */
function typedDiffers<T>(checked: Checked<T>, input: string, savedChecked: Checked<T>, savedInput: string): boolean {
  if (checked.ok && savedChecked.ok) return JSON.stringify(checked.value) !== JSON.stringify(savedChecked.value);
  return input.trim() !== savedInput.trim();
}

export function checkSettingsForm(form: SettingsForm, saved: WebsiteSettings, fields: WebsiteSettingsFields): SettingsFormCheck {
  const baseline = toForm(saved);
  const all = fields === 'all';
  const change: WebsiteSettingsChange = {};
  const blockers: SettingsBlocker[] = [];
  const unsaved: UnsavedChange[] = [];

  function block(field: string, label: string, checked: Checked<unknown>, section: SettingsSectionId) {
    if (!checked.ok) blockers.push({ section, field, label, problem: checked.problem });
  }

  const retention = checkRetentionMonths(form.retentionMonths);
  const privacyPolicyUrl = checkPrivacyPolicyUrl(form.privacyPolicyUrl);
  const policyVersion = checkPolicyVersion(form.policyVersion);
  const purposes = checkPurposes(getAskedPurposes(form));
  const services = toServices(form.services);
  const consentLifetime = checkConsentLifetimeMonths(form.consentLifetimeMonths);
  const textOverrides = toTextOverrides(form.textOverrides);
  const regionRules = toRegionRules(form.regionRules);
  const resolutionCap = checkMonthlyResolutionCap(form.monthlyResolutionCap);

  // Blockers in the order of the sections, and of the fields within each.
  if (all) {
    block('privacyPolicyUrl', 'Privacy policy URL', privacyPolicyUrl, 'appearance');
    block('purposes', 'Consent purposes', purposes, 'purposes');
    form.services.forEach((draft, index) => {
      const checked = checkServiceDraft(draft);
      block(`service-${draft.key}-name`, `Name of service ${index + 1}`, checked.name, 'purposes');
      block(`service-${draft.key}-description`, `Description of service ${index + 1}`, checked.description, 'purposes');
      block(`service-${draft.key}-cookies`, `Cookies of service ${index + 1}`, checked.cookies, 'purposes');
    });
    for (const language of bannerLanguages) {
      for (const key of bannerTextKeys) {
        const input = form.textOverrides[language]?.[key];
        const checked = input === undefined ? null : checkBannerText(input);
        if (checked && !checked.ok) {
          blockers.push({
            section: 'languages',
            field: `text-${language}-${key}`,
            label: `${bannerTextLabels[key]} (${getEnglishLanguageName(language)})`,
            problem: checked.problem,
            language,
          });
        }
      }
    }
    checkRegionRuleDrafts(form.regionRules).forEach((checked, index) => {
      const draft = form.regionRules[index];
      if (draft) block(`region-${draft.key}`, `Region ${index + 1}`, checked, 'regions');
    });
    if (form.regionRules.length > maxRegionRules) {
      blockers.push({ section: 'regions', field: 'regions', label: 'Your rules', problem: `List at most ${maxRegionRules} regions.` });
    }
    block('consentLifetimeMonths', 'Consent lifetime (months)', consentLifetime, 'lifetime');
    block('policyVersion', 'Policy version', policyVersion, 'lifetime');
  }
  block('retentionMonths', 'Retention period (months)', retention, 'lifetime');
  if (all) block('monthlyResolutionCap', 'Monthly resolution cap', resolutionCap, 'identification');

  // The change: only settings that differ from the saved ones, and only when valid.
  if (retention.ok && retention.value !== saved.retentionMonths) change.retentionMonths = retention.value;
  const ipAddressMode = form.keepIpTruncated ? 'truncated' : 'full';
  if (ipAddressMode !== saved.ipAddressMode) change.ipAddressMode = ipAddressMode;
  if (form.keepPageQueryStrings !== (saved.keepPageQueryStrings ?? false)) change.keepPageQueryStrings = form.keepPageQueryStrings;
  if (all) {
    if (form.bannerPosition !== saved.bannerPosition) change.bannerPosition = form.bannerPosition;
    if (form.bannerTheme !== saved.bannerTheme) change.bannerTheme = form.bannerTheme;
    if (privacyPolicyUrl.ok && privacyPolicyUrl.value !== saved.privacyPolicyUrl) change.privacyPolicyUrl = privacyPolicyUrl.value;
    if (policyVersion.ok && policyVersion.value !== saved.policyVersion) change.policyVersion = policyVersion.value;
    if (purposes.ok) Object.assign(change, getPurposeChange(form, saved));
    if (form.identificationForms !== savedIdentificationForms(saved)) change.identificationForms = form.identificationForms;
    if (resolutionCap.ok && resolutionCap.value !== (saved.monthlyResolutionCap ?? null)) change.monthlyResolutionCap = resolutionCap.value;
    if (services !== null && !sameServices(services, saved.services)) change.services = services;
    if (consentLifetime.ok && consentLifetime.value !== saved.consentLifetimeMonths) change.consentLifetimeMonths = consentLifetime.value;
    if (form.defaultLanguage !== savedDefaultLanguage(saved)) change.defaultLanguage = form.defaultLanguage;
    if (textOverrides !== null && !sameTextOverrides(textOverrides, saved.textOverrides ?? {})) change.textOverrides = textOverrides;
    if (regionRules !== null && !sameRegionRules(regionRules, saved.regionRules ?? {})) change.regionRules = regionRules;
    if (form.forceOptIn !== (saved.forceOptIn ?? false)) change.forceOptIn = form.forceOptIn;
  }

  // Unsaved: what differs from the saved settings, valid or not: one change per field, per row of a
  // list and per banner text. A field counts when what a save would send differs, or when it is
  // invalid and differs as typed, so the count and the PATCH never disagree.
  const serviceRows = countRowChanges(form.services, baseline.services, sameServiceDraft);
  const regionRows = countRowChanges(form.regionRules, baseline.regionRules, sameRegionRuleDraft);
  const texts = countTextChanges(form.textOverrides, baseline.textOverrides);
  const entries: [keyof SettingsForm, boolean, number?][] = [
    ['bannerPosition', change.bannerPosition !== undefined],
    ['bannerTheme', change.bannerTheme !== undefined],
    ['privacyPolicyUrl', typedDiffers(privacyPolicyUrl, form.privacyPolicyUrl, checkPrivacyPolicyUrl(baseline.privacyPolicyUrl), baseline.privacyPolicyUrl)],
    ['purposes', form.purposes.join() !== baseline.purposes.join()],
    ['services', services === null ? serviceRows > 0 : change.services !== undefined, serviceRows],
    ['defaultLanguage', change.defaultLanguage !== undefined],
    ['textOverrides', textOverrides === null ? texts > 0 : change.textOverrides !== undefined, texts],
    ['forceOptIn', change.forceOptIn !== undefined],
    ['regionRules', regionRules === null ? regionRows > 0 : change.regionRules !== undefined, regionRows],
    [
      'consentLifetimeMonths',
      typedDiffers(consentLifetime, form.consentLifetimeMonths, checkConsentLifetimeMonths(baseline.consentLifetimeMonths), baseline.consentLifetimeMonths),
    ],
    ['policyVersion', typedDiffers(policyVersion, form.policyVersion, checkPolicyVersion(baseline.policyVersion), baseline.policyVersion)],
    ['retentionMonths', typedDiffers(retention, form.retentionMonths, checkRetentionMonths(baseline.retentionMonths), baseline.retentionMonths)],
    ['keepIpTruncated', change.ipAddressMode !== undefined],
    ['keepPageQueryStrings', change.keepPageQueryStrings !== undefined],
    ['identification', form.identification !== baseline.identification],
    ['identificationForms', change.identificationForms !== undefined],
    [
      'monthlyResolutionCap',
      typedDiffers(resolutionCap, form.monthlyResolutionCap, checkMonthlyResolutionCap(baseline.monthlyResolutionCap), baseline.monthlyResolutionCap),
    ],
  ];
  for (const [field, differs, rows = 1] of entries) {
    if (!differs || (!all && !privacyFields.has(field))) continue;
    // A list that differs as a whole (rows in another order) is one change at least.
    for (let index = 0; index < Math.max(1, rows); index += 1) unsaved.push({ section: settingsFieldSections[field], field });
  }
  return { change, blockers, unsaved };
}

/** The sections with unsaved changes, in the form's order. */
export function getUnsavedSections(unsaved: readonly UnsavedChange[]): SettingsSectionId[] {
  return [...new Set(unsaved.map((entry) => entry.section))];
}
