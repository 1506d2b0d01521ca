// The Purposes & services section of the banner settings: which optional purposes the banner asks for
// (at least one; Identification is switched in the Identification section) and the services and
// cookies it lists under them.
import { memo, useCallback } from 'react';
import type { OptionalPurpose } from '../../lib/purposes';
import { PurposeCheckboxes, ServicesEditor, type ServiceDraft } from './purpose-fields';
import { SettingsSection, type SetSettingsField } from './settings-field';
import { getAskedPurposes } from './settings-form-model';
import { checkPurposes } from './validation';

export const PurposesSection = memo(function PurposesSection({
  purposes,
  identification,
  services,
  newServiceKey,
  setField,
}: {
  /** The checklist's purposes (identification never among them). */
  purposes: OptionalPurpose[];
  /** Whether Lead identification is on: it counts as a purpose asked. */
  identification: boolean;
  services: ServiceDraft[];
  /** A key no service row has yet. */
  newServiceKey: () => number;
  setField: SetSettingsField;
}) {
  const askedPurposes = getAskedPurposes({ purposes, identification });
  const checked = checkPurposes(askedPurposes);
  const setPurposes = useCallback((next: OptionalPurpose[]) => setField('purposes', next), [setField]);
  const setServices = useCallback((next: ServiceDraft[]) => setField('services', next), [setField]);
  return (
    <SettingsSection section="purposes">
      <PurposeCheckboxes value={purposes} identification={identification} problem={checked.ok ? null : checked.problem} onChange={setPurposes} />
      <ServicesEditor value={services} askedPurposes={askedPurposes} onChange={setServices} newKey={newServiceKey} />
    </SettingsSection>
  );
});
