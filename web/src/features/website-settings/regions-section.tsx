// The Regions section of the banner settings: whether to ask for consent everywhere, and the owner's
// own rule (opt-in, opt-out, notice only) for the regions they name.
import { memo, useCallback } from 'react';
import { RegionRulesEditor, type RegionRuleDraft } from './region-rule-fields';
import { SettingsSection, type SetSettingsField } from './settings-field';

export const RegionsSection = memo(function RegionsSection({
  forceOptIn,
  regionRules,
  newRegionKey,
  setField,
}: {
  forceOptIn: boolean;
  regionRules: RegionRuleDraft[];
  /** A key no rule row has yet. */
  newRegionKey: () => number;
  setField: SetSettingsField;
}) {
  const setForceOptIn = useCallback((next: boolean) => setField('forceOptIn', next), [setField]);
  const setRegionRules = useCallback((next: RegionRuleDraft[]) => setField('regionRules', next), [setField]);
  return (
    <SettingsSection section="regions">
      <RegionRulesEditor
        forceOptIn={forceOptIn}
        onForceOptInChange={setForceOptIn}
        value={regionRules}
        onChange={setRegionRules}
        newKey={newRegionKey}
      />
    </SettingsSection>
  );
});
