// The edge's text guard: NUL characters and unpaired surrogates are found anywhere in a parsed
// body, with the field's path; every other text (emoji, any script) passes.
import { describe, expect, it } from 'vitest';
import { findUnsafeText, unsafeTextReason, withSafeText, UnsafeTextError } from './safe-text';

describe('a string', () => {
  it.each(['', 'plain', 'Zürich — 東京 — 🍪🎉', 'tab\tand\nnewline', '\u{10FFFF}'])('%j is fine', (text) => {
    expect(unsafeTextReason(text)).toBeNull();
  });

  it.each([
    ['a NUL', 'a\u0000b', 'must not contain NUL (\\u0000) characters'],
    ['a lone high surrogate', 'x\ud83c', 'must be well-formed Unicode (it contains an unpaired surrogate)'],
    ['a lone low surrogate', '\udc00y', 'must be well-formed Unicode (it contains an unpaired surrogate)'],
    ['reversed surrogates', '\udf6a\ud83c', 'must be well-formed Unicode (it contains an unpaired surrogate)'],
  ])('with %s is refused', (_label, text, reason) => {
    expect(unsafeTextReason(text)).toBe(reason);
  });
});

describe('a parsed body', () => {
  it('names the first unsafe field by its path, in arrays and nested objects too', () => {
    expect(findUnsafeText({ name: 'ok', branding: { companyName: 'A\u0000' } })).toEqual({ path: '/branding/companyName', reason: expect.stringContaining('NUL') });
    expect(findUnsafeText({ features: [{ title: 'ok' }, { title: '\ud800' }] })).toEqual({ path: '/features/1/title', reason: expect.stringContaining('surrogate') });
    expect(findUnsafeText('\u0000')).toEqual({ path: '', reason: expect.stringContaining('NUL') });
    expect(findUnsafeText({ ['bad\u0000key']: 1 })).toEqual({ path: '', reason: expect.stringContaining('field names must not contain NUL') });
    expect(findUnsafeText({ n: 1, b: true, nothing: null, list: [1, 'two', '🍪'] })).toBeNull();
  });
});

describe('a validator wrapped with the guard', () => {
  const validate = withSafeText((_route: unknown) => (data: unknown) => ({ value: data }))({});

  it('refuses unsafe text before the route’s schema sees it, naming the field', () => {
    const result = validate({ email: 'a\u0000@example.com' }) as { error: UnsafeTextError };
    expect(result.error).toBeInstanceOf(UnsafeTextError);
    expect(result.error.message).toBe('email: must not contain NUL (\\u0000) characters');
    expect(result.error.validation).toEqual([{ instancePath: '/email', message: 'must not contain NUL (\\u0000) characters' }]);
  });

  it('hands everything else to the route’s schema', () => {
    expect(validate({ email: 'a@example.com' })).toEqual({ value: { email: 'a@example.com' } });
  });
});
