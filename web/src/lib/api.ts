// The one way the app talks to the api (spec section 7): same-origin relative URLs, cookies always
// sent, JSON bodies with a JSON content type, and every non-OK answer turned into an Error whose
// message is `${status}: ${body text or status text}`.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An Error raised for a non-OK answer; keeps the status so callers need not parse the message. */
export class ApiError extends Error {
  readonly status: number;
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.bodyText = bodyText;
  }
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const bodyText = await response.text().catch(() => '');
  throw new ApiError(response.status, response.statusText, bodyText);
}

/** Sends one request and returns the answer once it is known to be OK. */
export async function apiRequest(method: HttpMethod, url: string, body?: unknown): Promise<Response> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfNotOk(response);
  return response;
}

/** GETs a JSON document. The type is the api contract of spec section 7, not checked at run time. */
export async function getJson<T>(url: string): Promise<T> {
  const response = await apiRequest('GET', url);
  return (await response.json()) as T;
}

/**
 * GETs a JSON document that describes who is signed in: 401 and 403 mean "nobody", which is an
 * answer rather than a failure, so the auth state can be derived from whether data is present.
 */
export async function getJsonOrNull<T>(url: string): Promise<T | null> {
  try {
    return await getJson<T>(url);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
    throw error;
  }
}

/** Sends a JSON body and reads the JSON answer. */
export async function sendJson<T>(method: Exclude<HttpMethod, 'GET'>, url: string, body?: unknown): Promise<T> {
  const response = await apiRequest(method, url, body);
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** The status of a failed request: from an ApiError, or parsed from the `${status}: ` message prefix. */
export function getErrorStatus(error: unknown): number | null {
  if (error instanceof ApiError) return error.status;
  if (error instanceof Error) {
    const match = /^(\d{3}): /.exec(error.message);
    if (match?.[1]) return Number(match[1]);
  }
  return null;
}

/** The failure's body text: from an ApiError, or what follows the `${status}: ` message prefix. */
function getBodyText(error: Error): string {
  return error instanceof ApiError ? error.bodyText : error.message.replace(/^\d{3}: /, '');
}

/** The api's stable error code (`{ error: { code } }`), or null when the answer has none. */
export function getErrorCode(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  try {
    const parsed: unknown = JSON.parse(getBodyText(error));
    const code = (parsed as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

/**
 * The human-readable message the server put in a failed answer. Handles the api's
 * `{ error: { code, message } }`, the admin login's `{ error: "text" }`, `{ message }` and plain text.
 */
export function getServerMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const bodyText = getBodyText(error);
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed && typeof parsed === 'object') {
      const record = parsed as { error?: unknown; message?: unknown };
      if (typeof record.error === 'string') return record.error;
      if (record.error && typeof record.error === 'object') {
        const nested = (record.error as { message?: unknown }).message;
        if (typeof nested === 'string') return nested;
      }
      if (typeof record.message === 'string') return record.message;
    }
  } catch {
    // Not JSON: the body text itself is the message.
  }
  return bodyText || error.message;
}
