// Installation verification (POST /api/verify-installation): the api fetches the website's home page
// and looks for the snippet with the website's embed code. The answer is a result, not an error: a
// page without the snippet is `success: false` with the reason, and either way the api says when the
// ledger last received an event from the site.
import { sendJson } from '../../lib/api';

export type VerificationState = 'idle' | 'testing' | 'success' | 'error';

/** What the api checked (`details` of its answer). */
export interface VerificationDetails {
  /** The page fetched last; null when none could be fetched. */
  url: string | null;
  statusCode: number | null;
  scriptFound: boolean;
  embedCodeFound: boolean;
  /** Why verification failed; null on success. */
  reason: string | null;
  /** When the ledger last received an event from this website; null for never. */
  lastEventAt: string | null;
}

export interface VerificationAnswer {
  success: boolean;
  message?: string;
  error?: string;
  details?: VerificationDetails;
}

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
