// The Consent lifetime section of the banner settings: how long a visitor's choice stands before the
// banner asks again, the policy version (changing it asks everyone again now) and how long consent
// data is kept (the retention period, also in Settings → Privacy).
import { memo, useCallback, useId } from 'react';
import { Input } from '../../components/ui/input';
import { RetentionPeriodField } from './privacy-fields';
import { Field, SettingsSection, type SetSettingsField } from './settings-field';
import {
  checkConsentLifetimeMonths,
  checkPolicyVersion,
  consentLifetimeMonthsMax,
  consentLifetimeMonthsMin,
  defaultConsentLifetimeMonths,
} from './validation';

export const ConsentLifetimeSection = memo(function ConsentLifetimeSection({
  consentLifetimeMonths,
  policyVersion,
  retentionMonths,
  setField,
}: {
  consentLifetimeMonths: string;
  policyVersion: string;
  retentionMonths: string;
  setField: SetSettingsField;
}) {
  const id = useId();
  const lifetime = checkConsentLifetimeMonths(consentLifetimeMonths);
  const version = checkPolicyVersion(policyVersion);
  const setRetention = useCallback((next: string) => setField('retentionMonths', next), [setField]);
  return (
    <SettingsSection section="lifetime">
      <Field
        label="Consent lifetime (months)"
        htmlFor={`${id}-lifetime`}
        hintId={`${id}-lifetime-hint`}
        problem={lifetime.ok ? null : lifetime.problem}
        hint={`How long a visitor's choice stands before the banner asks again. A whole number from ${consentLifetimeMonthsMin} to ${consentLifetimeMonthsMax}; default ${defaultConsentLifetimeMonths}.`}
      >
        <Input
          id={`${id}-lifetime`}
          data-settings-field="consentLifetimeMonths"
          inputMode="numeric"
          className="max-w-32"
          value={consentLifetimeMonths}
          aria-invalid={!lifetime.ok}
          aria-describedby={`${id}-lifetime-hint`}
          onChange={(event) => setField('consentLifetimeMonths', event.target.value)}
        />
      </Field>

      <Field
        label="Policy version"
        htmlFor={`${id}-version`}
        hintId={`${id}-version-hint`}
        problem={version.ok ? null : version.problem}
        hint="Changing it asks every visitor again."
      >
        <Input
          id={`${id}-version`}
          data-settings-field="policyVersion"
          className="max-w-48"
          maxLength={64}
          value={policyVersion}
          aria-invalid={!version.ok}
          aria-describedby={`${id}-version-hint`}
          onChange={(event) => setField('policyVersion', event.target.value)}
        />
      </Field>

      <RetentionPeriodField value={retentionMonths} onChange={setRetention} />
    </SettingsSection>
  );
});
