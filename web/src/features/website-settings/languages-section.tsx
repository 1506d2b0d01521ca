// The Languages & texts section of the banner settings: the default language (for visitors whose
// browser languages the banner does not speak) and the owner's own wording of its texts, per
// language. Which language the texts editor shows is the form's, so the save bar can open a text to fix.
import { memo, useCallback, type SetStateAction } from 'react';
import type { BannerLanguage } from '../../lib/banner-languages';
import { BannerTextsEditor, DefaultLanguageField, type TextOverrideDrafts } from './language-fields';
import { SettingsSection, type SetSettingsField } from './settings-field';

export const LanguagesSection = memo(function LanguagesSection({
  defaultLanguage,
  textOverrides,
  textLanguage,
  onTextLanguageChange,
  setField,
}: {
  defaultLanguage: BannerLanguage;
  textOverrides: TextOverrideDrafts;
  /** The language whose texts the editor shows. */
  textLanguage: BannerLanguage;
  onTextLanguageChange: (language: BannerLanguage) => void;
  setField: SetSettingsField;
}) {
  const setDefaultLanguage = useCallback((next: BannerLanguage) => setField('defaultLanguage', next), [setField]);
  const setTextOverrides = useCallback((next: SetStateAction<TextOverrideDrafts>) => setField('textOverrides', next), [setField]);
  return (
    <SettingsSection section="languages">
      <DefaultLanguageField value={defaultLanguage} onChange={setDefaultLanguage} />
      <BannerTextsEditor
        value={textOverrides}
        initialLanguage={textLanguage}
        language={textLanguage}
        onLanguageChange={onTextLanguageChange}
        onChange={setTextOverrides}
      />
    </SettingsSection>
  );
});
