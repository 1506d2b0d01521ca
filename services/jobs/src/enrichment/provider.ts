// What an enrichment provider is to the worker: a name, and one call that turns what is known about a
// lead ({ email, domain, company }) into business contact details, says nobody is known, or fails —
// for now (RetryableError: retried with back-off until the job's 24-hour deadline) or for good
// (PermanentError: the job fails as `rejected`). Adapters: our signed HTTP contract (http-provider.ts,
// docs/enrichment-provider.md) and Hunter.io (hunter-provider.ts).
import type { EnrichmentDetails } from '@consentry/events';

export interface EnrichmentInput {
  /** Normalised; null for a company match from the network. */
  readonly email: string | null;
  /** The company's domain, when known. */
  readonly domain: string | null;
  /** The company's name as the visitor typed it or the network names it. */
  readonly company: string | null;
}

export type EnrichmentResult = { readonly kind: 'found'; readonly details: EnrichmentDetails } | { readonly kind: 'not_found'; readonly detail?: string };

export interface EnrichmentCall {
  /** Stable across the job's retries (the provider may deduplicate on it). */
  readonly id: string;
  /** Aborted when the request timeout passes or the worker stops. */
  readonly signal: AbortSignal;
}

export interface EnrichmentProvider {
  /** Recorded on the events and keys the shared rate limit (1–50 characters). */
  readonly name: string;
  enrich(input: EnrichmentInput, call: EnrichmentCall): Promise<EnrichmentResult>;
}

/** Try again later; `retryAfterMs` is what the provider asked for (Retry-After), if anything. */
export class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'RetryableError';
  }
}

/** This request can never succeed (refused credentials, an input the provider rejects). */
export class PermanentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentError';
  }
}

/** The details with every field bounded as the LeadEnriched schema wants; over-long text is cut, text no field may hold dropped. */
export function boundedDetails(details: { readonly [K in keyof EnrichmentDetails]?: string | null | undefined }): EnrichmentDetails {
  const cut = (value: string | null | undefined, max: number): string | null => {
    // NUL and unpaired surrogates cannot be stored in jsonb (infra's safe-text): dropped, not stored.
    const text = value?.replaceAll('\u0000', '').replace(/\p{Cs}/gu, '').trim();
    return text ? cutText(text, max) : null;
  };
  return {
    name: cut(details.name, 200),
    title: cut(details.title, 200),
    company: cut(details.company, 200),
    domain: cut(details.domain?.toLowerCase(), 255),
    industry: cut(details.industry, 200),
    size: cut(details.size, 50),
    linkedinUrl: cut(details.linkedinUrl, 500),
    location: cut(details.location, 200),
  };
}

/**
 * At most `max` UTF-16 code units (what the event schemas count), never splitting a surrogate pair.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** Reads a response body up to `maxBytes`; more than that is a malformed answer. */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new RetryableError(`The answer was larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What a failed fetch was, in words for the operator (never the URL: Hunter's could hold the key). */
export function describeFetchError(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return reason instanceof DOMException && reason.name === 'TimeoutError' ? 'No answer within the request timeout' : 'Stopped before an answer';
  }
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return cause?.code ? `Network error (${cause.code})` : 'Network error';
}
