// ENRICHMENT_PROVIDER=http: our own signed HTTP contract (docs/enrichment-provider.md), which any
// provider or in-house service can implement. We POST { id, email, domain, company } to
// ENRICHMENT_URL signed with Standard Webhooks headers (HMAC-SHA256 over "{id}.{timestamp}.{body}"
// with ENRICHMENT_SECRET); the provider answers 200 { details } signed the same way over its own body
// with the same id, 404 when it knows nobody, 429 with Retry-After when we go too fast, 400/422 when
// it will never take this input, 401/403 when it refuses our signature. A 200 whose signature is
// missing or wrong, or whose body is not the bounded shape below, is a failure that is retried (and
// reported): the answer may have been tampered with on the way, or the provider is misconfigured.
import { z } from 'zod';
import { parseRetryAfter } from '../webhooks/guarded-post';
import { verifyWebhook, webhookHeaders, WebhookVerificationError } from '../webhooks/signature';
import {
  boundedDetails,
  describeFetchError,
  PermanentError,
  readBoundedText,
  RetryableError,
  type EnrichmentCall,
  type EnrichmentInput,
  type EnrichmentProvider,
  type EnrichmentResult,
} from './provider';

export interface HttpProviderOptions {
  readonly url: string;
  /** whsec_ secret shared with the provider. */
  readonly secret: string;
  /** The name recorded on events and keying the rate limit (default `http`). */
  readonly name?: string;
  /** How far the answer's webhook-timestamp may be from our clock (default 5 minutes). */
  readonly toleranceSeconds?: number;
  readonly now?: () => Date;
}

const maxAnswerBytes = 64 * 1024;
const text = (max: number) => z.string().max(max).nullable().optional();

/** The 200 answer: every field optional or null; longer text than our record holds is malformed. */
export const httpProviderAnswer = z.object({
  details: z.object({
    name: text(200),
    title: text(200),
    company: text(200),
    domain: text(255),
    industry: text(200),
    size: text(50),
    linkedinUrl: z.url({ protocol: /^https?$/ }).max(500).nullable().optional(),
    location: text(200),
  }),
});

export function createHttpEnrichmentProvider(options: HttpProviderOptions): EnrichmentProvider {
  const name = options.name ?? 'http';
  return {
    name,
    async enrich(input: EnrichmentInput, call: EnrichmentCall): Promise<EnrichmentResult> {
      const body = JSON.stringify({ id: call.id, email: input.email, domain: input.domain, company: input.company });
      const timestamp = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
      let response: Response;
      try {
        response = await fetch(options.url, {
          method: 'POST',
          headers: {
            ...webhookHeaders(options.secret, call.id, body, timestamp),
            'content-type': 'application/json',
            'user-agent': 'Consentry-Enrichment/1',
            accept: 'application/json',
          },
          body,
          redirect: 'error',
          signal: call.signal,
        });
      } catch (error) {
        throw new RetryableError(describeFetchError(error, call.signal));
      }
      const status = response.status;
      if (status === 404) {
        await response.body?.cancel().catch(() => undefined);
        return { kind: 'not_found' };
      }
      if (status !== 200) {
        await response.body?.cancel().catch(() => undefined);
        if (status === 429) throw new RetryableError('The provider asked us to slow down (429)', parseRetryAfter(response.headers.get('retry-after')));
        if (status === 400 || status === 422) throw new PermanentError(`The provider refused this input (${status})`);
        if (status === 401 || status === 403) throw new PermanentError(`The provider refused our signature (${status}): check ENRICHMENT_SECRET`);
        throw new RetryableError(`The provider answered ${status}`, parseRetryAfter(response.headers.get('retry-after')));
      }
      let answerText: string;
      try {
        answerText = await readBoundedText(response, maxAnswerBytes);
      } catch (error) {
        if (error instanceof RetryableError) throw error;
        throw new RetryableError(describeFetchError(error, call.signal));
      }
      try {
        const verified = verifyWebhook(options.secret, response.headers, answerText, {
          toleranceSeconds: options.toleranceSeconds ?? 300,
          ...(options.now ? { now: options.now } : {}),
        });
        if (verified.id !== call.id) throw new WebhookVerificationError('webhook-id is not the request’s id');
      } catch (error) {
        if (error instanceof WebhookVerificationError) throw new RetryableError(`The answer’s signature was refused: ${error.message}`);
        throw error;
      }
      let json: unknown;
      try {
        json = JSON.parse(answerText);
      } catch {
        throw new RetryableError('The answer was not JSON');
      }
      const parsed = httpProviderAnswer.safeParse(json);
      if (!parsed.success) {
        const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(body)'))].slice(0, 5).join(', ');
        throw new RetryableError(`The answer did not match the contract (${fields})`);
      }
      return { kind: 'found', details: boundedDetails(parsed.data.details) };
    },
  };
}
