// Installation verification (POST /api/verify-installation): the api fetches the website's home page
// and looks for the snippet with the website's embed code. The answer is a result, not an error: a
// page without the snippet is `success: false` with the reason, and either way the api says when the
// ledger last received an event from the site.
import { sendJson } from '../../lib/api';
import type { ApiAnswer } from '../../lib/api-types';

export type VerificationState = 'idle' | 'testing' | 'success' | 'error';

export type VerificationAnswer = ApiAnswer<'/api/verify-installation', 'post'>;
/**
 * What the api checked: the page fetched last (`url` null when none could be), why verification
 * failed (`reason`, null on success), and when the ledger last received an event from this website
 * (`lastEventAt`, null for never).
 */
export type VerificationDetails = VerificationAnswer['details'];

export interface VerificationResult {
  state: 'success' | 'error';
  message: string;
  details: VerificationDetails | null;
}

export const verifiedMessage = 'Installation verified successfully!';
export const verificationFailedMessage = 'Could not verify the installation on your website.';

export function toVerificationResult(answer: VerificationAnswer): VerificationResult {
  const details = answer.details ?? null;
  if (answer.success) return { state: 'success', message: answer.message || verifiedMessage, details };
  return { state: 'error', message: answer.error || answer.message || verificationFailedMessage, details };
}

export async function verifyInstallation(embedCode: string): Promise<VerificationResult> {
  return toVerificationResult(await sendJson<VerificationAnswer>('POST', '/api/verify-installation', { embedCode }));
}
