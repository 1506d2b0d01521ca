// The Identification section of the banner settings: what the ledger keeps that could identify a
// visitor (whole or truncated IP addresses, page query strings) and Lead identification of the
// visitors who allow it (lead-identification-fields.tsx).
import { memo, useCallback } from 'react';
import { LeadIdentificationFields } from './lead-identification-fields';
import { KeepIpTruncatedField, KeepQueryStringsField } from './privacy-fields';
import { SettingsSection, type SetSettingsField } from './settings-field';
import { checkMonthlyResolutionCap, leadIdentificationAnchor, type IdentificationForms } from './validation';

export const IdentificationSection = memo(function IdentificationSection({
  keepIpTruncated,
  keepPageQueryStrings,
  identification,
  savedIdentification,
  identificationForms,
  monthlyResolutionCap,
  setField,
}: {
  keepIpTruncated: boolean;
  keepPageQueryStrings: boolean;
  identification: boolean;
  /** Whether Lead identification is on in the saved settings: a change asks every visitor again. */
  savedIdentification: boolean;
  identificationForms: IdentificationForms;
  monthlyResolutionCap: string;
  setField: SetSettingsField;
}) {
  const cap = checkMonthlyResolutionCap(monthlyResolutionCap);
  const setKeepIpTruncated = useCallback((next: boolean) => setField('keepIpTruncated', next), [setField]);
  const setKeepQueryStrings = useCallback((next: boolean) => setField('keepPageQueryStrings', next), [setField]);
  return (
    <SettingsSection section="identification">
      <KeepIpTruncatedField checked={keepIpTruncated} onChange={setKeepIpTruncated} />
      <KeepQueryStringsField checked={keepPageQueryStrings} onChange={setKeepQueryStrings} />
      <LeadIdentificationFields
        id={leadIdentificationAnchor}
        enabled={identification}
        forms={identificationForms}
        savedEnabled={savedIdentification}
        onEnabledChange={(next) => setField('identification', next)}
        onFormsChange={(next) => setField('identificationForms', next)}
        resolutionCap={monthlyResolutionCap}
        resolutionCapProblem={cap.ok ? null : cap.problem}
        onResolutionCapChange={(next) => setField('monthlyResolutionCap', next)}
      />
    </SettingsSection>
  );
});
