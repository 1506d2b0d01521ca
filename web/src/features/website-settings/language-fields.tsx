// The Languages part of the website settings form: the banner's default language (for visitors whose
// browser languages the banner does not speak) and the owner's own wording of its texts, per language,
// with our text as the default of each. The form owns the state; these draw it and report changes.
import { useQuery } from '@tanstack/react-query';
import { memo, useCallback, useId, useState, type Dispatch, type SetStateAction } from 'react';
import { LoadingState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Textarea } from '../../components/ui/textarea';
import {
  bannerLanguages,
  bannerLanguagesByName,
  formatLanguageName,
  getEnglishLanguageName,
  textDirection,
  type BannerLanguage,
} from '../../lib/banner-languages';
import { bannerTextKeys, bannerTextLabels, longBannerTextKeys, type BannerTextKey, type TextOverrides } from './banner-texts';
import { shippedBannerTextsQueryOptions } from './queries';
import { checkBannerText, describeMissingPlaceholders, findMissingPlaceholders } from './validation';

/** The overrides as typed, per language and text; a text not named (or empty) is ours. */
export type TextOverrideDrafts = Partial<Record<BannerLanguage, Partial<Record<BannerTextKey, string>>>>;

/**
 * The overrides as the api takes them: languages and texts in the api's order, texts trimmed, empty
 * ones and languages without any left out; null while a text is invalid.
 */
export function toTextOverrides(drafts: TextOverrideDrafts): TextOverrides | null {
  const overrides: TextOverrides = {};
  for (const language of bannerLanguages) {
    const texts = drafts[language];
    if (!texts) continue;
    const checked: Partial<Record<BannerTextKey, string>> = {};
    for (const key of bannerTextKeys) {
      const input = texts[key];
      if (input === undefined) continue;
      const result = checkBannerText(input);
      if (!result.ok) return null;
      if (result.value !== null) checked[key] = result.value;
    }
    if (Object.keys(checked).length > 0) overrides[language] = checked;
  }
  return overrides;
}

/** The saved overrides as the form would send them, so untouched ones never count as a change. */
export function sameTextOverrides(overrides: TextOverrides, saved: TextOverrides): boolean {
  return JSON.stringify(overrides) === JSON.stringify(toTextOverrides(saved) ?? saved);
}

/** Per language (in the api's order): how many texts have the owner's wording, and how many are invalid. */
export function summariseTextOverrides(drafts: TextOverrideDrafts): { language: BannerLanguage; own: number; invalid: number }[] {
  return bannerLanguages.flatMap((language) => {
    const inputs = Object.values(drafts[language] ?? {}).filter((input) => input !== '');
    if (inputs.length === 0) return [];
    const invalid = inputs.filter((input) => !checkBannerText(input).ok).length;
    return [{ language, own: inputs.length, invalid }];
  });
}

export function LanguageSelect({
  id,
  value,
  onChange,
  describedBy,
}: {
  id: string;
  value: BannerLanguage;
  onChange: (language: BannerLanguage) => void;
  describedBy?: string;
}) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as BannerLanguage)}>
      <SelectTrigger id={id} className="sm:max-w-72" aria-describedby={describedBy}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {bannerLanguagesByName.map((language) => (
          <SelectItem key={language} value={language}>
            {formatLanguageName(language)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

export function DefaultLanguageField({ value, onChange }: { value: BannerLanguage; onChange: (language: BannerLanguage) => void }) {
  const id = useId();
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Default language</Label>
      <LanguageSelect id={id} value={value} onChange={onChange} describedBy={`${id}-hint`} />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        The banner speaks the first of a visitor&apos;s browser languages it knows; visitors whose languages it does not
        know get this one.
      </p>
    </div>
  );
}

export function BannerTextsEditor({
  value,
  initialLanguage,
  onChange,
  language: shownLanguage,
  onLanguageChange,
}: {
  value: TextOverrideDrafts;
  /** The language shown first (the website's default). */
  initialLanguage: BannerLanguage;
  /** Called with the next drafts, or with how to make them from the latest (as a state setter is). */
  onChange: Dispatch<SetStateAction<TextOverrideDrafts>>;
  /** The language shown, when the form decides it (the save bar opens a text in another language). */
  language?: BannerLanguage;
  onLanguageChange?: (language: BannerLanguage) => void;
}) {
  const id = useId();
  const [ownLanguage, setOwnLanguage] = useState<BannerLanguage>(initialLanguage);
  const language = shownLanguage ?? ownLanguage;
  const setLanguage = onLanguageChange ?? setOwnLanguage;
  const shipped = useQuery(shippedBannerTextsQueryOptions(language));
  const drafts = value[language] ?? {};
  const summary = summariseTextOverrides(value);
  const invalidElsewhere = summary.filter((entry) => entry.invalid > 0 && entry.language !== language);

  // Stable while the language stays, so typing in one text re-renders that row only.
  const update = useCallback(
    (key: BannerTextKey, input: string) =>
      onChange((current) => {
        const texts = { ...current[language] };
        if (input === '') delete texts[key];
        else texts[key] = input;
        const next = { ...current };
        if (Object.keys(texts).length === 0) delete next[language];
        else next[language] = texts;
        return next;
      }),
    [onChange, language],
  );

  return (
    <fieldset className="space-y-4" aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-medium">Banner texts</legend>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        Each text shows our wording until you type your own; empty means ours. The banner fills in {'{company}'} with your
        company name and {'{purpose}'} with a purpose&apos;s name.
      </p>
      <div className="space-y-2">
        <Label htmlFor={`${id}-language`}>Language to edit</Label>
        <LanguageSelect id={`${id}-language`} value={language} onChange={setLanguage} />
      </div>
      <p className="text-xs text-muted-foreground" aria-live="polite">
        {summary.length === 0
          ? 'No texts of your own yet.'
          : `Your own wording: ${summary.map((entry) => `${getEnglishLanguageName(entry.language)} (${entry.own})`).join(', ')}.`}
      </p>
      {invalidElsewhere.length > 0 ? (
        <p role="alert" className="text-xs text-destructive">
          Fix the texts in {invalidElsewhere.map((entry) => getEnglishLanguageName(entry.language)).join(', ')} before saving.
        </p>
      ) : null}
      {shipped.isPending ? (
        <LoadingState className="py-4 text-sm text-muted-foreground" />
      ) : shipped.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Our texts in {getEnglishLanguageName(language)} could not be loaded. Reload the page to try again.
        </p>
      ) : (
        <ul className="space-y-4" aria-label={`Texts in ${getEnglishLanguageName(language)}`}>
          {bannerTextKeys.map((key) => (
            <BannerTextRow
              key={`${language}-${key}`}
              language={language}
              textKey={key}
              ours={shipped.data[key]}
              value={drafts[key] ?? ''}
              onChange={update}
            />
          ))}
        </ul>
      )}
    </fieldset>
  );
}

const BannerTextRow = memo(function BannerTextRow({
  language,
  textKey,
  ours,
  value,
  onChange,
}: {
  language: BannerLanguage;
  textKey: BannerTextKey;
  ours: string;
  value: string;
  onChange: (key: BannerTextKey, input: string) => void;
}) {
  const id = useId();
  const label = bannerTextLabels[textKey];
  const checked = checkBannerText(value);
  const warning = checked.ok ? describeMissingPlaceholders(findMissingPlaceholders(ours, value)) : null;
  const hintId = `${id}-hint`;
  const problem = checked.ok ? null : checked.problem;
  const hinted = problem !== null || warning !== null || value !== '';
  const field = {
    id,
    lang: language,
    dir: textDirection(language),
    placeholder: ours,
    value,
    'aria-invalid': !checked.ok,
    'aria-describedby': hinted ? hintId : undefined,
    'data-settings-field': `text-${language}-${textKey}`,
  };
  return (
    <li className="space-y-2">
      <div className="flex min-h-8 items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {value !== '' ? (
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange(textKey, '')} aria-label={`Use our text for ${label}`}>
            Use ours
          </Button>
        ) : null}
      </div>
      {longBannerTextKeys.has(textKey) ? (
        <Textarea rows={rowsFor(value || ours)} {...field} onChange={(event) => onChange(textKey, event.target.value)} />
      ) : (
        <Input {...field} onChange={(event) => onChange(textKey, event.target.value)} />
      )}
      {problem !== null ? (
        <p id={hintId} className="text-xs text-destructive">
          {problem}
        </p>
      ) : warning !== null ? (
        <p id={hintId} className="text-xs text-amber-700">
          {warning}
        </p>
      ) : value !== '' ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          Ours:{' '}
          <span lang={language} dir={textDirection(language)}>
            {ours}
          </span>
        </p>
      ) : null}
    </li>
  );
});

/** Enough rows for a text at about 80 characters a line, from 2 to 6. */
function rowsFor(text: string): number {
  return Math.min(6, Math.max(2, Math.ceil(text.length / 80)));
}
