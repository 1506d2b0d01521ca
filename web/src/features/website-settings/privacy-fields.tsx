// The three settings Settings → Privacy offers, also part of the Banner tab's sections: the retention
// period (Consent lifetime) and whether IP addresses are truncated and page query strings kept
// (Identification). The form owns the state; these draw it and report changes.
import { memo, useId } from 'react';
import { Input } from '../../components/ui/input';
import { Field, SwitchField } from './settings-field';
import { checkRetentionMonths, defaultRetentionMonths, promisedRetentionMonths, retentionMonthsMax, retentionMonthsMin } from './validation';

export const RetentionPeriodField = memo(function RetentionPeriodField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  const retention = checkRetentionMonths(value);
  return (
    <Field
      label="Retention period (months)"
      htmlFor={id}
      hintId={`${id}-hint`}
      problem={retention.ok ? null : retention.problem}
      hint={
        retention.ok && retention.value > promisedRetentionMonths
          ? `Longer than the ${promisedRetentionMonths} months (2 years) the privacy text promises.`
          : `Consent data older than this is deleted. A whole number from ${retentionMonthsMin} to ${retentionMonthsMax}; default ${defaultRetentionMonths}.`
      }
    >
      <Input
        id={id}
        data-settings-field="retentionMonths"
        inputMode="numeric"
        className="max-w-32"
        value={value}
        aria-invalid={!retention.ok}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
});

export const KeepIpTruncatedField = memo(function KeepIpTruncatedField({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <SwitchField
      id={id}
      label="Keep IP addresses truncated"
      hint="Stores 203.0.113.0 instead of 203.0.113.7 (IPv6 without its last 80 bits) for choices recorded from now on."
      checked={checked}
      onCheckedChange={onChange}
    />
  );
});

export const KeepQueryStringsField = memo(function KeepQueryStringsField({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <SwitchField
      id={id}
      label="Keep query strings of page addresses"
      hint="Off, pages are recorded as /signup instead of /signup?email=…, so what visitors type into a form never reaches the ledger. Turn it on only if you need campaign parameters such as utm_source, for choices and page views recorded from now on."
      checked={checked}
      onCheckedChange={onChange}
    />
  );
});
