// Edits one website's settings. `privacy` shows what Settings → Privacy offers (retention period and
// IP address storage); `all` adds the banner defaults, privacy policy link, policy version, the
// consent purposes with the services and cookies listed under them, the consent lifetime, the
// banner's languages (default language and the owner's own wording), the rules by region and Lead
// identification (the Settings tab of /website-analytics). The form fills from the loaded settings
// and sends only what changed; Save stays off while a field is invalid or nothing changed.
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { LoadingState } from '../../components/query-state';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Switch } from '../../components/ui/switch';
import { getErrorStatus, getServerMessage } from '../../lib/api';
import { defaultBannerLanguage, isBannerLanguage, type BannerLanguage } from '../../lib/banner-languages';
import { sortPurposes, type OptionalPurpose } from '../../lib/purposes';
import type { BannerPosition, BannerTheme } from '../../lib/snippet';
import {
  BannerTextsEditor,
  DefaultLanguageField,
  sameTextOverrides,
  toTextOverrides,
  type TextOverrideDrafts,
} from './language-fields';
import { LeadIdentificationFields } from './lead-identification-fields';
import { PurposeCheckboxes, ServicesEditor, toServiceDrafts, toServices, type ServiceDraft } from './purpose-fields';
import { RegionRulesEditor, sameRegionRules, toRegionRuleDrafts, toRegionRules, type RegionRuleDraft } from './region-rule-fields';
import { useUpdateWebsiteSettings, websiteSettingsQueryOptions, type PurposeService, type WebsiteSettings } from './queries';
import {
  checkConsentLifetimeMonths,
  checkMonthlyResolutionCap,
  checkPolicyVersion,
  checkPrivacyPolicyUrl,
  checkPurposes,
  checkRetentionMonths,
  consentLifetimeMonthsMax,
  consentLifetimeMonthsMin,
  defaultConsentLifetimeMonths,
  defaultIdentificationForms,
  defaultRetentionMonths,
  isIdentificationForms,
  leadIdentificationAnchor,
  promisedRetentionMonths,
  retentionMonthsMax,
  retentionMonthsMin,
  type IdentificationForms,
} from './validation';

export type WebsiteSettingsFields = 'privacy' | 'all';

interface SettingsForm {
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

/** Whether the saved settings have Lead identification on; an api without the flag tells it by the purposes. */
export function savedIdentification(settings: Pick<WebsiteSettings, 'purposes' | 'identification'>): boolean {
  return settings.identification ?? settings.purposes.includes('identification');
}

function savedIdentificationForms(settings: WebsiteSettings): IdentificationForms {
  return isIdentificationForms(settings.identificationForms) ? settings.identificationForms : defaultIdentificationForms;
}

/** The purposes of the checklist: every asked purpose but identification, which has its own switch. */
function checklistPurposesOf(purposes: readonly OptionalPurpose[]): OptionalPurpose[] {
  return purposes.filter((purpose) => purpose !== 'identification');
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

function toForm(settings: WebsiteSettings): SettingsForm {
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

function savedDefaultLanguage(settings: WebsiteSettings): BannerLanguage {
  return isBannerLanguage(settings.defaultLanguage) ? settings.defaultLanguage : defaultBannerLanguage;
}

/** The saved list as the form would send it, so an untouched list never counts as a change. */
function sameServices(services: readonly PurposeService[], saved: readonly PurposeService[]): boolean {
  return JSON.stringify(services) === JSON.stringify(toServices(toServiceDrafts(saved)) ?? saved);
}

export function WebsiteSettingsForm({ websiteId, fields }: { websiteId: string; fields: WebsiteSettingsFields }) {
  const settings = useQuery(websiteSettingsQueryOptions(websiteId));
  if (settings.isPending) return <LoadingState />;
  if (settings.isError) {
    return (
      <p role="alert" className="text-sm text-muted-foreground">
        The settings could not be loaded: {getServerMessage(settings.error)}
      </p>
    );
  }
  // Keyed by website: choosing another website starts from its own saved values.
  return <SettingsFormFields key={websiteId} websiteId={websiteId} saved={settings.data} fields={fields} />;
}

function SettingsFormFields({ websiteId, saved, fields }: { websiteId: string; saved: WebsiteSettings; fields: WebsiteSettingsFields }) {
  const [form, setForm] = useState<SettingsForm>(() => toForm(saved));
  const update = useUpdateWebsiteSettings(websiteId);
  const { toast } = useToast();
  const id = useId();
  // Service rows are keyed 0, 1, 2, … when (re)filled from saved settings; new rows count on from
  // there, and there are never more rows than keys handed out, so a key is never reused.
  const nextServiceKey = useRef(saved.services.length);
  const nextRegionKey = useRef(Object.keys(saved.regionRules ?? {}).length);
  // The api's reason for a refused save (400), shown beside Save until the form changes.
  const [saveProblem, setSaveProblem] = useState<string | null>(null);

  function edit(next: SettingsForm) {
    setForm(next);
    setSaveProblem(null);
  }

  const retention = checkRetentionMonths(form.retentionMonths);
  const privacyPolicyUrl = checkPrivacyPolicyUrl(form.privacyPolicyUrl);
  const policyVersion = checkPolicyVersion(form.policyVersion);
  // The banner needs one purpose at least; identification counts.
  const askedPurposes = sortPurposes(form.identification ? [...form.purposes, 'identification'] : form.purposes);
  const purposes = checkPurposes(askedPurposes);
  const services = toServices(form.services);
  const consentLifetime = checkConsentLifetimeMonths(form.consentLifetimeMonths);
  const textOverrides = toTextOverrides(form.textOverrides);
  const regionRules = toRegionRules(form.regionRules);
  const resolutionCap = checkMonthlyResolutionCap(form.monthlyResolutionCap);
  const all = fields === 'all';
  const valid =
    retention.ok &&
    (!all ||
      (privacyPolicyUrl.ok &&
        policyVersion.ok &&
        purposes.ok &&
        services !== null &&
        consentLifetime.ok &&
        textOverrides !== null &&
        regionRules !== null &&
        resolutionCap.ok));

  const change: Partial<WebsiteSettings> = {};
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
  const changed = Object.keys(change).length > 0;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!valid || !changed) return;
    setSaveProblem(null);
    update.mutate(change, {
      onSuccess: (next) => {
        setForm(toForm(next));
        toast({ title: 'Settings Updated', description: 'Your website settings have been saved.' });
      },
      onError: (error) => {
        if (getErrorStatus(error) === 400) setSaveProblem(getServerMessage(error));
        toast({ title: 'Error', description: `Failed to update website settings: ${getServerMessage(error)}`, variant: 'destructive' });
      },
    });
  }

  const ids = {
    retention: `${id}-retention`,
    retentionHint: `${id}-retention-hint`,
    ip: `${id}-ip`,
    queryStrings: `${id}-query-strings`,
    position: `${id}-position`,
    theme: `${id}-theme`,
    url: `${id}-url`,
    urlHint: `${id}-url-hint`,
    version: `${id}-version`,
    versionHint: `${id}-version-hint`,
    lifetime: `${id}-lifetime`,
    lifetimeHint: `${id}-lifetime-hint`,
    languages: `${id}-languages`,
    regions: `${id}-regions`,
    saveProblem: `${id}-save-problem`,
  };

  return (
    <form onSubmit={submit} className="space-y-6" noValidate>
      <Field
        label="Retention period (months)"
        htmlFor={ids.retention}
        hintId={ids.retentionHint}
        problem={retention.ok ? null : retention.problem}
        hint={
          retention.ok && retention.value > promisedRetentionMonths
            ? `Longer than the ${promisedRetentionMonths} months (2 years) the privacy text promises.`
            : `Consent data older than this is deleted. A whole number from ${retentionMonthsMin} to ${retentionMonthsMax}; default ${defaultRetentionMonths}.`
        }
      >
        <Input
          id={ids.retention}
          inputMode="numeric"
          className="max-w-32"
          value={form.retentionMonths}
          aria-invalid={!retention.ok}
          aria-describedby={ids.retentionHint}
          onChange={(event) => edit({ ...form, retentionMonths: event.target.value })}
        />
      </Field>

      <div className="flex items-start justify-between gap-4">
        <div className="space-y-1">
          <Label htmlFor={ids.ip}>Keep IP addresses truncated</Label>
          <p className="text-xs text-muted-foreground">
            Stores 203.0.113.0 instead of 203.0.113.7 (IPv6 without its last 80 bits) for choices recorded from now on.
          </p>
        </div>
        <Switch id={ids.ip} checked={form.keepIpTruncated} onCheckedChange={(checked) => edit({ ...form, keepIpTruncated: checked })} />
      </div>

      <div className="flex items-start justify-between gap-4">
        <div className="space-y-1">
          <Label htmlFor={ids.queryStrings}>Keep query strings of page addresses</Label>
          <p className="text-xs text-muted-foreground">
            Off, pages are recorded as /signup instead of /signup?email=…, so what visitors type into a form never reaches the ledger. Turn it on only if
            you need campaign parameters such as utm_source, for choices and page views recorded from now on.
          </p>
        </div>
        <Switch
          id={ids.queryStrings}
          checked={form.keepPageQueryStrings}
          onCheckedChange={(checked) => edit({ ...form, keepPageQueryStrings: checked })}
        />
      </div>

      {all ? (
        <>
          <div className="space-y-2">
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="space-y-2">
                <Label htmlFor={ids.position}>Banner position</Label>
                <Select value={form.bannerPosition} onValueChange={(value) => edit({ ...form, bannerPosition: value as BannerPosition })}>
                  <SelectTrigger id={ids.position}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="bottom">Bottom</SelectItem>
                    <SelectItem value="top">Top</SelectItem>
                  </SelectContent>
                </Select>
              </div>
              <div className="space-y-2">
                <Label htmlFor={ids.theme}>Banner theme</Label>
                <Select value={form.bannerTheme} onValueChange={(value) => edit({ ...form, bannerTheme: value as BannerTheme })}>
                  <SelectTrigger id={ids.theme}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="light">Light</SelectItem>
                    <SelectItem value="dark">Dark</SelectItem>
                  </SelectContent>
                </Select>
              </div>
            </div>
            <p className="text-xs text-muted-foreground">Used when the snippet sets no data-position or data-theme.</p>
          </div>

          <Field
            label="Privacy policy URL"
            htmlFor={ids.url}
            hintId={ids.urlHint}
            problem={privacyPolicyUrl.ok ? null : privacyPolicyUrl.problem}
            hint="The banner links to it. Leave empty for no link."
          >
            <Input
              id={ids.url}
              type="url"
              placeholder="https://example.com/privacy"
              value={form.privacyPolicyUrl}
              aria-invalid={!privacyPolicyUrl.ok}
              aria-describedby={ids.urlHint}
              onChange={(event) => edit({ ...form, privacyPolicyUrl: event.target.value })}
            />
          </Field>

          <Field
            label="Policy version"
            htmlFor={ids.version}
            hintId={ids.versionHint}
            problem={policyVersion.ok ? null : policyVersion.problem}
            hint="Changing it asks every visitor again."
          >
            <Input
              id={ids.version}
              className="max-w-48"
              maxLength={64}
              value={form.policyVersion}
              aria-invalid={!policyVersion.ok}
              aria-describedby={ids.versionHint}
              onChange={(event) => edit({ ...form, policyVersion: event.target.value })}
            />
          </Field>

          <PurposeCheckboxes
            value={form.purposes}
            identification={form.identification}
            problem={purposes.ok ? null : purposes.problem}
            onChange={(next) => edit({ ...form, purposes: next })}
          />

          <ServicesEditor
            value={form.services}
            askedPurposes={askedPurposes}
            onChange={(next) => edit({ ...form, services: next })}
            newKey={() => nextServiceKey.current++}
          />

          <Field
            label="Consent lifetime (months)"
            htmlFor={ids.lifetime}
            hintId={ids.lifetimeHint}
            problem={consentLifetime.ok ? null : consentLifetime.problem}
            hint={`How long a visitor's choice stands before the banner asks again. A whole number from ${consentLifetimeMonthsMin} to ${consentLifetimeMonthsMax}; default ${defaultConsentLifetimeMonths}.`}
          >
            <Input
              id={ids.lifetime}
              inputMode="numeric"
              className="max-w-32"
              value={form.consentLifetimeMonths}
              aria-invalid={!consentLifetime.ok}
              aria-describedby={ids.lifetimeHint}
              onChange={(event) => edit({ ...form, consentLifetimeMonths: event.target.value })}
            />
          </Field>

          <section aria-labelledby={ids.languages} className="space-y-6 border-t pt-6">
            <h3 id={ids.languages} className="text-base font-semibold">
              Languages
            </h3>
            <DefaultLanguageField value={form.defaultLanguage} onChange={(next) => edit({ ...form, defaultLanguage: next })} />
            <BannerTextsEditor
              value={form.textOverrides}
              initialLanguage={form.defaultLanguage}
              onChange={(next) => edit({ ...form, textOverrides: next })}
            />
          </section>

          <section aria-labelledby={ids.regions} className="space-y-4 border-t pt-6">
            <h3 id={ids.regions} className="text-base font-semibold">
              Rules by region
            </h3>
            <RegionRulesEditor
              forceOptIn={form.forceOptIn}
              onForceOptInChange={(next) => edit({ ...form, forceOptIn: next })}
              value={form.regionRules}
              onChange={(next) => edit({ ...form, regionRules: next })}
              newKey={() => nextRegionKey.current++}
            />
          </section>

          <LeadIdentificationFields
            id={leadIdentificationAnchor}
            enabled={form.identification}
            forms={form.identificationForms}
            savedEnabled={savedIdentification(saved)}
            onEnabledChange={(next) => edit({ ...form, identification: next })}
            onFormsChange={(next) => edit({ ...form, identificationForms: next })}
            resolutionCap={form.monthlyResolutionCap}
            resolutionCapProblem={resolutionCap.ok ? null : resolutionCap.problem}
            onResolutionCapChange={(next) => edit({ ...form, monthlyResolutionCap: next })}
          />
        </>
      ) : null}

      <div className="space-y-2">
        <Button type="submit" disabled={update.isPending || !valid || !changed} aria-describedby={saveProblem ? ids.saveProblem : undefined}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
        {saveProblem ? (
          <p id={ids.saveProblem} role="alert" className="text-sm text-destructive">
            Not saved: {saveProblem}
          </p>
        ) : null}
      </div>
    </form>
  );
}

function Field({
  label,
  htmlFor,
  hintId,
  hint,
  problem,
  children,
}: {
  label: string;
  htmlFor: string;
  hintId: string;
  hint: string;
  problem: string | null;
  children: ReactNode;
}) {
  return (
    <div className="space-y-2">
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
      <p id={hintId} className={problem ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
        {problem ?? hint}
      </p>
    </div>
  );
}
