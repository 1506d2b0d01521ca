// Installation verification (POST /api/verify-installation): the api fetches the website and looks
// for the snippet. The answer's exact fields are not in the spec; `success` decides, and a `message`
// and `details` are shown when present.
import { sendJson } from '../../lib/api';

export type VerificationState = 'idle' | 'testing' | 'success' | 'error';

export interface VerificationAnswer {
  success: boolean;
  message?: string;
  error?: string;
  details?: unknown;
}

export interface VerificationResult {
  state: 'success' | 'error';
  message: string;
  details: string[];
}

function describeDetails(details: unknown): string[] {
  if (details == null) return [];
  if (typeof details === 'string') return [details];
  if (Array.isArray(details)) return details.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  if (typeof details === 'object') {
    return Object.entries(details).map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return [String(details)];
}

export async function verifyInstallation(embedCode: string): Promise<VerificationResult> {
  const answer = await sendJson<VerificationAnswer>('POST', '/api/verify-installation', { embedCode });
  if (answer.success) {
    return { state: 'success', message: answer.message || 'Installation verified successfully!', details: describeDetails(answer.details) };
  }
  return {
    state: 'error',
    message: answer.error || answer.message || 'Could not verify the installation on your website.',
    details: describeDetails(answer.details),
  };
}
