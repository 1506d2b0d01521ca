// The one strength rule for every password an owner or admin chooses (registration, invitation,
// account and admin password changes, `consentry admin create`): besides the length rule
// (passwords.ts), zxcvbn-ts must score it at least 3 of 4, with the person's own name and email as
// guesses an attacker would try first. Its feedback keys are turned into our own words here.
import { createRequire } from 'node:module';
import type { ZxcvbnFactory, ZxcvbnResult } from '@zxcvbn-ts/core';
import { ApiError } from '../errors';
import { maxPasswordLength } from './passwords';

/** zxcvbn's "safely unguessable" (about 10^8 guesses and more). */
export const minPasswordScore = 3;

// Loaded and built on first use, not at import: the dictionaries take a moment, at every start.
let estimator: ZxcvbnFactory | undefined;
function getEstimator(): ZxcvbnFactory {
  if (estimator) return estimator;
  const require = createRequire(import.meta.url);
  const core = require('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
  const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
  estimator = new core.ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs });
  return estimator;
}

const warnings: Record<string, string> = {
  straightRow: 'a row of keys on the keyboard is easy to guess',
  keyPattern: 'a short keyboard pattern is easy to guess',
  simpleRepeat: 'repeated characters such as "aaa" are easy to guess',
  extendedRepeat: 'repeated groups such as "abcabc" are easy to guess',
  sequences: 'sequences such as "1234" or "abcd" are easy to guess',
  recentYears: 'recent years are easy to guess',
  dates: 'dates are easy to guess',
  topTen: 'this is one of the ten most used passwords',
  topHundred: 'this is one of the hundred most used passwords',
  common: 'this is a commonly used password',
  similarToCommon: 'this is too close to a commonly used password',
  wordByItself: 'a single word is easy to guess',
  namesByThemselves: 'names on their own are easy to guess',
  commonNames: 'common names are easy to guess',
  userInputs: 'it contains your name or email address',
  pwned: 'this password has appeared in a data breach',
};

const suggestions: Record<string, string> = {
  l33t: 'swapping letters for look-alike symbols (a → @) does not help much',
  reverseWords: 'a word spelt backwards is still easy to guess',
  allUppercase: 'capitalise some letters, not all of them',
  capitalization: 'capitalise more than the first letter',
  dates: 'leave out dates and years that belong to you',
  recentYears: 'leave out recent years',
  associatedYears: 'leave out years that belong to you',
  sequences: 'leave out sequences such as "1234"',
  repeated: 'leave out repeated words and characters',
  longerKeyboardPattern: 'use longer keyboard patterns with several turns',
  anotherWord: 'add a few more words that are not common',
  useWords: 'use several words that do not belong together; no symbols or digits are needed',
  noNeed: 'a few unrelated words are enough; no symbols or digits are needed',
  pwned: 'if you use this password elsewhere, change it there too',
};

/** Words the person's own details contribute as guesses: the email, its local part, names. */
function userInputsOf(personal: readonly (string | null | undefined)[]): string[] {
  const inputs = new Set<string>();
  for (const value of personal) {
    const text = value?.trim().toLowerCase();
    if (!text) continue;
    inputs.add(text);
    for (const part of text.split(/[@.\s_+-]+/)) if (part.length >= 3) inputs.add(part);
  }
  return [...inputs];
}

function describe(result: ZxcvbnResult): string {
  const warning = result.feedback.warning ? warnings[result.feedback.warning] : undefined;
  const advice = result.feedback.suggestions.map((key) => suggestions[key]).filter((text) => text !== undefined);
  const what = advice.length > 0 ? advice.join('; ') : 'use a longer password of several unrelated words';
  return `Choose a stronger password: ${what}${warning ? ` (${warning})` : ''}.`;
}

/**
 * Why this password is too weak, in words for the person choosing it; null when it is strong
 * enough. `personal`: their email, names or username.
 */
export function findPasswordWeakness(password: string, personal: readonly (string | null | undefined)[] = []): string | null {
  // The estimator's cost grows with length; anything longer is refused by the length rule anyway.
  const result = getEstimator().check(password.slice(0, maxPasswordLength), userInputsOf(personal));
  return result.score >= minPasswordScore ? null : describe(result);
}

export class WeakPasswordError extends ApiError {
  constructor(message: string) {
    super(400, 'WEAK_PASSWORD', message);
  }
}

/** Throws WeakPasswordError (400 WEAK_PASSWORD) for a password that is too easy to guess. */
export function assertStrongPassword(password: string, personal: readonly (string | null | undefined)[] = []): void {
  const weakness = findPasswordWeakness(password, personal);
  if (weakness) throw new WeakPasswordError(weakness);
}
