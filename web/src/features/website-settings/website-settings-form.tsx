// Edits one website's settings. `privacy` shows what Settings → Privacy offers (retention period, IP
// address storage, page query strings); `all` is the Banner tab of a website's page: every setting, in
// six sections (Appearance, Purposes & services, Languages & texts, Regions, Consent lifetime,
// Identification) with an index to jump between them. Either way it is one form with one save: it
// fills from the saved settings, a save bar appears once anything differs (how many changes, in
// which sections, Save and Discard, and which field blocks saving and why), a save sends only what
// changed, and leaving with unsaved changes asks first.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState, type FormEvent, type SetStateAction } from 'react';
import { LoadingState } from '../../components/query-state';
import { useToast } from '../../components/toaster';
import { getErrorStatus, getServerMessage } from '../../lib/api';
import type { BannerLanguage } from '../../lib/banner-languages';
import { AppearanceSection } from './appearance-section';
import { ConsentLifetimeSection } from './consent-lifetime-section';
import { focusSettingsField } from './focus-settings-field';
import { IdentificationSection } from './identification-section';
import { LanguagesSection } from './languages-section';
import { KeepIpTruncatedField, KeepQueryStringsField, RetentionPeriodField } from './privacy-fields';
import { PurposesSection } from './purposes-section';
import { useUpdateWebsiteSettings, websiteSettingsQueryOptions, type WebsiteSettings } from './queries';
import { RegionsSection } from './regions-section';
import type { SetSettingsField } from './settings-field';
import {
  checkSettingsForm,
  getUnsavedSections,
  savedIdentification,
  toForm,
  type SettingsBlocker,
  type SettingsForm,
  type WebsiteSettingsFields,
} from './settings-form-model';
import { SettingsSaveBar, describeUnsavedChanges } from './settings-save-bar';
import { SettingsSectionIndex } from './settings-section-index';
import { formatSectionList } from './settings-sections';
import { UnsavedChangesGuard } from './unsaved-changes-guard';

export { getPurposeChange, savedIdentification, type WebsiteSettingsFields } from './settings-form-model';

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
  const formRef = useRef<HTMLFormElement>(null);
  // Service and region rows are keyed 0, 1, 2, … when (re)filled from saved settings; new rows count
  // on from there, and there are never more rows than keys handed out, so a key is never reused.
  const nextServiceKey = useRef(saved.services.length);
  const nextRegionKey = useRef(Object.keys(saved.regionRules ?? {}).length);
  const newServiceKey = useCallback(() => nextServiceKey.current++, []);
  const newRegionKey = useCallback(() => nextRegionKey.current++, []);
  // The language the banner texts editor shows: it opens on the default language; the save bar
  // switches it to open a text to fix.
  const [textLanguage, setTextLanguage] = useState<BannerLanguage>(() => toForm(saved).defaultLanguage);
  // The api's reason for a refused save (400), shown in the save bar until the form changes.
  const [saveProblem, setSaveProblem] = useState<string | null>(null);

  // One setter for every section, stable, so typing in one section re-renders only that section.
  const setField = useCallback<SetSettingsField>((field, value) => {
    setForm((current) => ({
      ...current,
      [field]: typeof value === 'function' ? (value as (previous: SettingsForm[typeof field]) => SettingsForm[typeof field])(current[field]) : value,
    }));
    setSaveProblem(null);
  }, []);

  const check = useMemo(() => checkSettingsForm(form, saved, fields), [form, saved, fields]);
  const all = fields === 'all';
  const unsavedSections = getUnsavedSections(check.unsaved);
  const blockedSections = [...new Set(check.blockers.map((blocker) => blocker.section))];
  const summary = describeUnsavedChanges(check.unsaved.length, all ? formatSectionList(unsavedSections) : null);
  const unsaved = check.unsaved.length > 0;
  const blocker = check.blockers[0] ?? null;

  function focusBlocker(target: SettingsBlocker) {
    if (target.language) setTextLanguage(target.language);
    if (formRef.current) focusSettingsField(formRef.current, target.field, target.section);
  }

  function discard() {
    setForm(toForm(saved));
    setSaveProblem(null);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Enter in a field while another one is invalid takes the owner to it.
    if (blocker) {
      focusBlocker(blocker);
      return;
    }
    if (Object.keys(check.change).length === 0 || update.isPending) return;
    setSaveProblem(null);
    update.mutate(check.change, {
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

  const setRetention = useCallback((next: SetStateAction<string>) => setField('retentionMonths', next), [setField]);
  const setKeepIpTruncated = useCallback((next: boolean) => setField('keepIpTruncated', next), [setField]);
  const setKeepQueryStrings = useCallback((next: boolean) => setField('keepPageQueryStrings', next), [setField]);

  return (
    <form ref={formRef} onSubmit={submit} className={all ? 'space-y-8' : 'space-y-6'} noValidate>
      {all ? (
        <>
          <SettingsSectionIndex unsavedSections={unsavedSections} blockedSections={blockedSections} />
          <AppearanceSection
            bannerPosition={form.bannerPosition}
            bannerTheme={form.bannerTheme}
            privacyPolicyUrl={form.privacyPolicyUrl}
            setField={setField}
          />
          <PurposesSection
            purposes={form.purposes}
            identification={form.identification}
            services={form.services}
            newServiceKey={newServiceKey}
            setField={setField}
          />
          <LanguagesSection
            defaultLanguage={form.defaultLanguage}
            textOverrides={form.textOverrides}
            textLanguage={textLanguage}
            onTextLanguageChange={setTextLanguage}
            setField={setField}
          />
          <RegionsSection forceOptIn={form.forceOptIn} regionRules={form.regionRules} newRegionKey={newRegionKey} setField={setField} />
          <ConsentLifetimeSection
            consentLifetimeMonths={form.consentLifetimeMonths}
            policyVersion={form.policyVersion}
            retentionMonths={form.retentionMonths}
            setField={setField}
          />
          <IdentificationSection
            keepIpTruncated={form.keepIpTruncated}
            keepPageQueryStrings={form.keepPageQueryStrings}
            identification={form.identification}
            savedIdentification={savedIdentification(saved)}
            identificationForms={form.identificationForms}
            monthlyResolutionCap={form.monthlyResolutionCap}
            setField={setField}
          />
        </>
      ) : (
        <>
          <RetentionPeriodField value={form.retentionMonths} onChange={setRetention} />
          <KeepIpTruncatedField checked={form.keepIpTruncated} onChange={setKeepIpTruncated} />
          <KeepQueryStringsField checked={form.keepPageQueryStrings} onChange={setKeepQueryStrings} />
        </>
      )}

      {unsaved ? (
        <SettingsSaveBar
          summary={summary}
          blocker={blocker}
          moreBlockers={Math.max(0, check.blockers.length - 1)}
          saveProblem={saveProblem}
          saving={update.isPending}
          onFocusBlocker={focusBlocker}
          onDiscard={discard}
        />
      ) : null}
      <UnsavedChangesGuard count={check.unsaved.length} summary={summary} />
    </form>
  );
}
