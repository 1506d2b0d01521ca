// The Appearance section of the banner settings: where the banner sits and its theme (the defaults
// when the snippet sets no data-position or data-theme) and the privacy policy it links to.
import { memo, useId } from 'react';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import type { BannerPosition, BannerTheme } from '../../lib/snippet';
import { Field, SettingsSection, type SetSettingsField } from './settings-field';
import { checkPrivacyPolicyUrl } from './validation';

export const AppearanceSection = memo(function AppearanceSection({
  bannerPosition,
  bannerTheme,
  privacyPolicyUrl,
  setField,
}: {
  bannerPosition: BannerPosition;
  bannerTheme: BannerTheme;
  privacyPolicyUrl: string;
  setField: SetSettingsField;
}) {
  const id = useId();
  const url = checkPrivacyPolicyUrl(privacyPolicyUrl);
  return (
    <SettingsSection section="appearance">
      <div className="space-y-2">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-2">
            <Label htmlFor={`${id}-position`}>Banner position</Label>
            <Select value={bannerPosition} onValueChange={(value) => setField('bannerPosition', value as BannerPosition)}>
              <SelectTrigger id={`${id}-position`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="bottom">Bottom</SelectItem>
                <SelectItem value="top">Top</SelectItem>
              </SelectContent>
            </Select>
          </div>
          <div className="space-y-2">
            <Label htmlFor={`${id}-theme`}>Banner theme</Label>
            <Select value={bannerTheme} onValueChange={(value) => setField('bannerTheme', value as BannerTheme)}>
              <SelectTrigger id={`${id}-theme`}>
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
        htmlFor={`${id}-url`}
        hintId={`${id}-url-hint`}
        problem={url.ok ? null : url.problem}
        hint="The banner links to it. Leave empty for no link."
      >
        <Input
          id={`${id}-url`}
          data-settings-field="privacyPolicyUrl"
          type="url"
          placeholder="https://example.com/privacy"
          value={privacyPolicyUrl}
          aria-invalid={!url.ok}
          aria-describedby={`${id}-url-hint`}
          onChange={(event) => setField('privacyPolicyUrl', event.target.value)}
        />
      </Field>
    </SettingsSection>
  );
});
