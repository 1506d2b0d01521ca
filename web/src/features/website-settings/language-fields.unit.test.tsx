// The Languages part of the website settings: an override is 1 to 600 characters and not blank
// (empty: ours), one that drops a placeholder our text has is warned about but allowed, and the whole
// map is sent in the api's order. The editor shows our text as each field's default.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithToaster, stubFetch } from '../../test/render';
import { bannerTextsRoute } from './banner-texts.test-helper';
import { BannerTextsEditor, sameTextOverrides, summariseTextOverrides, toTextOverrides, type TextOverrideDrafts } from './language-fields';
import { blankBannerTextProblem, checkBannerText, describeMissingPlaceholders, findMissingPlaceholders } from './validation';

describe('checkBannerText', () => {
  it('takes empty as "use ours"', () => {
    expect(checkBannerText('')).toEqual({ ok: true, value: null });
  });

  it('trims a text and takes up to 600 characters', () => {
    expect(checkBannerText('  Hallo {company}  ')).toEqual({ ok: true, value: 'Hallo {company}' });
    expect(checkBannerText('x'.repeat(600))).toEqual({ ok: true, value: 'x'.repeat(600) });
  });

  it.each([' ', '   ', '\n\t'])('refuses the blank text %j', (input) => {
    expect(checkBannerText(input)).toEqual({ ok: false, problem: blankBannerTextProblem });
  });

  it('refuses more than 600 characters and says how many there are', () => {
    expect(checkBannerText('x'.repeat(601))).toEqual({ ok: false, problem: 'Use at most 600 characters (this text has 601).' });
  });
});

describe('findMissingPlaceholders', () => {
  it('names the placeholders our text has and the owner’s leaves out', () => {
    expect(findMissingPlaceholders('{company} uses cookies', 'We use cookies')).toEqual(['{company}']);
    expect(findMissingPlaceholders('{company} uses cookies', '{company} bakes cookies')).toEqual([]);
    expect(findMissingPlaceholders('Allow {purpose}', 'Allow it')).toEqual(['{purpose}']);
    expect(findMissingPlaceholders('{company}: allow {purpose}', 'Allow')).toEqual(['{company}', '{purpose}']);
    // A placeholder ours lacks is the owner's to add; an empty text is ours.
    expect(findMissingPlaceholders('Accept All', '{company} yes')).toEqual([]);
    expect(findMissingPlaceholders('{company} uses cookies', '')).toEqual([]);
  });

  it('says so in one sentence', () => {
    expect(describeMissingPlaceholders([])).toBeNull();
    expect(describeMissingPlaceholders(['{company}'])).toBe('Our text has {company}, which the banner fills in; yours leaves it out.');
    expect(describeMissingPlaceholders(['{company}', '{purpose}'])).toBe(
      'Our text has {company} and {purpose}, which the banner fills in; yours leaves them out.',
    );
  });
});

describe('toTextOverrides', () => {
  it('keeps the texts typed, trimmed, in the api’s order, without empty ones or languages left empty', () => {
    const drafts: TextOverrideDrafts = {
      fr: { acceptAll: ' Tout accepter ' },
      de: { centreTitle: 'Ihre Wahl', title: 'Willkommen bei {company}' },
      it: { title: '' },
    };
    const overrides = toTextOverrides(drafts);
    expect(overrides).toEqual({ de: { title: 'Willkommen bei {company}', centreTitle: 'Ihre Wahl' }, fr: { acceptAll: 'Tout accepter' } });
    expect(JSON.stringify(overrides)).toBe('{"de":{"title":"Willkommen bei {company}","centreTitle":"Ihre Wahl"},"fr":{"acceptAll":"Tout accepter"}}');
  });

  it('is null while any language has an invalid text', () => {
    expect(toTextOverrides({ de: { title: 'Gut' }, sv: { notice: '  ' } })).toBeNull();
    expect(toTextOverrides({ ar: { title: 'x'.repeat(601) } })).toBeNull();
  });

  it('counts a saved map in another order or with spaces around a text as unchanged', () => {
    const saved = { fr: { acceptAll: 'Tout accepter ' }, de: { centreTitle: 'Ihre Wahl', title: 'Hallo' } };
    expect(sameTextOverrides(toTextOverrides(saved) ?? {}, saved)).toBe(true);
    expect(sameTextOverrides({ de: { title: 'Hallo' } }, saved)).toBe(false);
    expect(sameTextOverrides({}, {})).toBe(true);
  });
});

describe('summariseTextOverrides', () => {
  it('counts the owner’s texts and the invalid ones per language', () => {
    expect(summariseTextOverrides({ fr: { title: 'a', notice: ' ' }, de: { title: 'b' }, it: { title: '' } })).toEqual([
      { language: 'de', own: 1, invalid: 0 },
      { language: 'fr', own: 2, invalid: 1 },
    ]);
  });
});

function Editor({ initial = {} }: { initial?: TextOverrideDrafts }) {
  const [drafts, setDrafts] = useState<TextOverrideDrafts>(initial);
  return <BannerTextsEditor value={drafts} initialLanguage="de" onChange={setDrafts} />;
}

describe('the banner texts editor', () => {
  beforeEach(() => {
    stubFetch(bannerTextsRoute);
  });

  it('shows every text of the language with our text as its default', async () => {
    renderWithToaster(<Editor initial={{ de: { title: 'Willkommen bei {company}' } }} />);
    const title = await screen.findByLabelText('Banner title');
    expect(title).toHaveValue('Willkommen bei {company}');
    expect(title).toHaveAttribute('placeholder', '{company} verwendet Cookies');
    expect(title).toHaveAttribute('lang', 'de');
    expect(screen.getByText('{company} verwendet Cookies')).toBeInTheDocument();
    const centreTitle = screen.getByLabelText('Preference centre title');
    expect(centreTitle).toHaveValue('');
    expect(centreTitle).toHaveAttribute('placeholder', 'Datenschutzeinstellungen');
    expect(within(screen.getByRole('list', { name: 'Texts in German' })).getAllByRole('listitem')).toHaveLength(27);
    expect(screen.getByText('Your own wording: German (1).')).toBeInTheDocument();
  });

  it('warns without blocking when a text drops a placeholder, and goes back to ours', async () => {
    renderWithToaster(<Editor />);
    const user = userEvent.setup();
    const title = await screen.findByLabelText('Banner title');
    await user.type(title, 'Wir verwenden Cookies');
    expect(screen.getByText('Our text has {company}, which the banner fills in; yours leaves it out.')).toBeInTheDocument();
    expect(title).toHaveAttribute('aria-invalid', 'false');
    await user.click(screen.getByRole('button', { name: 'Use our text for Banner title' }));
    expect(title).toHaveValue('');
    expect(screen.getByText('No texts of your own yet.')).toBeInTheDocument();
  });

  it('switches language, right to left for Arabic, and says where a text needs fixing', async () => {
    renderWithToaster(<Editor />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Accept All button'), '   ');
    expect(screen.getByText(blankBannerTextProblem)).toBeInTheDocument();
    expect(screen.getByLabelText('Accept All button')).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('combobox', { name: 'Language to edit' }));
    await user.click(await screen.findByRole('option', { name: 'Arabic (العربية)' }));
    const title = await screen.findByRole('list', { name: 'Texts in Arabic' });
    expect(within(title).getByLabelText('Banner title')).toHaveAttribute('dir', 'rtl');
    expect(screen.getByRole('alert')).toHaveTextContent('Fix the texts in German before saving.');
  });
});
