// The rules of the website settings form, matching the api's: retention a whole number of months
// from 1 to 120 (default 24, spec sections 5 and 9), an http(s) privacy policy URL or none, and a
// policy version of 1 to 64 characters.

export const retentionMonthsMin = 1;
export const retentionMonthsMax = 120;
export const defaultRetentionMonths = 24;
/** What the privacy text promises: consent data is kept up to 2 years. */
export const promisedRetentionMonths = 24;

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

export const retentionProblem = `Enter a whole number of months from ${retentionMonthsMin} to ${retentionMonthsMax}.`;

export function checkRetentionMonths(input: string): Checked<number> {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return { ok: false, problem: retentionProblem };
  const months = Number(text);
  if (months < retentionMonthsMin || months > retentionMonthsMax) return { ok: false, problem: retentionProblem };
  return { ok: true, value: months };
}

export function checkPrivacyPolicyUrl(input: string): Checked<string | null> {
  const text = input.trim();
  if (text === '') return { ok: true, value: null };
  const problem = 'Enter a full http or https address, such as https://example.com/privacy.';
  if (text.length > 2048) return { ok: false, problem: 'Use an address of at most 2048 characters.' };
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, problem };
  } catch {
    return { ok: false, problem };
  }
  return { ok: true, value: text };
}

export function checkPolicyVersion(input: string): Checked<string> {
  const text = input.trim();
  if (text.length < 1 || text.length > 64) return { ok: false, problem: 'Enter a policy version of 1 to 64 characters.' };
  return { ok: true, value: text };
}
