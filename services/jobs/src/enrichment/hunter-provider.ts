// ENRICHMENT_PROVIDER=hunter: Hunter.io's enrichment API, as its public documentation describes it
// (https://hunter.io/api-documentation/v2, "Combined Enrichment" and "Company Enrichment"). What is
// asked, where the key goes and what each status means: docs/identification.md, "Hunter.io".
import { z } from 'zod';
import { parseRetryAfter } from '../webhooks/guarded-post';
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

export const hunterApiBaseUrl = 'https://api.hunter.io/v2';

export interface HunterProviderOptions {
  readonly apiKey: string;
  /** https://api.hunter.io/v2 unless told otherwise (tests serve Hunter's shapes on loopback). */
  readonly baseUrl?: string;
}

const maxAnswerBytes = 512 * 1024;
const text = z.string().nullish();
const handle = z.object({ handle: text }).nullish();

const hunterCompany = z.object({
  name: text,
  domain: text,
  location: text,
  category: z.object({ sector: text, industry: text }).nullish(),
  metrics: z.object({ employees: z.union([z.string(), z.number()]).nullish() }).nullish(),
  linkedin: handle,
});
type HunterCompany = z.infer<typeof hunterCompany>;

const hunterPerson = z.object({
  name: z.object({ fullName: text, givenName: text, familyName: text }).nullish(),
  location: text,
  geo: z.object({ city: text, state: text, country: text }).nullish(),
  employment: z.object({ domain: text, name: text, title: text }).nullish(),
  linkedin: handle,
});
type HunterPerson = z.infer<typeof hunterPerson>;

const combinedAnswer = z.object({ data: z.object({ person: hunterPerson.nullish(), company: hunterCompany.nullish() }) });
const companyAnswer = z.object({ data: hunterCompany.nullish() });
const errorAnswer = z.object({ errors: z.array(z.object({ id: z.string().regex(/^[a-z_]{1,50}$/).optional() }).passthrough()).min(1) });

const personHandle = /^[A-Za-z0-9%_.-]{1,200}$/;
const companyHandle = /^(?:company|school|showcase)\/[A-Za-z0-9%_.-]{1,200}$/;

/** The details Hunter's person and company give; null when they give nothing at all. */
export function mapHunterAnswer(person: HunterPerson | null | undefined, company: HunterCompany | null | undefined) {
  const givenAndFamily = [person?.name?.givenName, person?.name?.familyName].filter(Boolean).join(' ');
  const geo = person?.geo ? [person.geo.city, person.geo.state, person.geo.country].filter(Boolean).join(', ') : '';
  const linkedinOfPerson = person?.linkedin?.handle && personHandle.test(person.linkedin.handle) ? `https://www.linkedin.com/in/${person.linkedin.handle}` : null;
  const linkedinOfCompany = company?.linkedin?.handle && companyHandle.test(company.linkedin.handle) ? `https://www.linkedin.com/${company.linkedin.handle}` : null;
  const employees = company?.metrics?.employees;
  const details = boundedDetails({
    name: person?.name?.fullName || givenAndFamily || null,
    title: person?.employment?.title,
    company: person?.employment?.name || company?.name,
    domain: person?.employment?.domain || company?.domain,
    industry: company?.category?.industry || company?.category?.sector,
    size: employees == null ? null : String(employees),
    // The lead's own profile when Hunter knows it; the company's for a company-only match.
    linkedinUrl: linkedinOfPerson ?? (person ? null : linkedinOfCompany),
    location: person?.location || geo || (person ? null : company?.location),
  });
  return Object.values(details).some((value) => value !== null) ? details : null;
}

export function createHunterEnrichmentProvider(options: HunterProviderOptions): EnrichmentProvider {
  const base = (options.baseUrl ?? hunterApiBaseUrl).replace(/\/$/, '');
  return {
    name: 'hunter',
    async enrich(input: EnrichmentInput, call: EnrichmentCall): Promise<EnrichmentResult> {
      const url = input.email
        ? `${base}/combined/find?email=${encodeURIComponent(input.email)}`
        : input.domain
          ? `${base}/companies/find?domain=${encodeURIComponent(input.domain)}`
          : null;
      if (!url) return { kind: 'not_found', detail: 'Nothing Hunter can look up: no email and no company domain' };
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { 'x-api-key': options.apiKey, accept: 'application/json', 'user-agent': 'Consentry-Enrichment/1' },
          redirect: 'error',
          signal: call.signal,
        });
      } catch (error) {
        throw new RetryableError(describeFetchError(error, call.signal));
      }
      let body: string;
      try {
        body = await readBoundedText(response, maxAnswerBytes);
      } catch (error) {
        if (error instanceof RetryableError) throw error;
        throw new RetryableError(describeFetchError(error, call.signal));
      }
      const status = response.status;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      const errorId = status === 200 ? undefined : errorIdOf(body);
      const named = errorId ? ` ${errorId}` : '';
      switch (status) {
        case 200:
          break;
        case 202:
          throw new RetryableError('Hunter is still working this one out (202)', retryAfter);
        case 404:
          return { kind: 'not_found' };
        case 451:
          return { kind: 'not_found', detail: `The person asked Hunter to stop processing their data (451${named}); nothing is kept` };
        case 401:
          throw new PermanentError(`Hunter refused the API key (401${named}): check HUNTER_API_KEY`);
        case 403:
          throw new RetryableError(`Hunter's rate limit was reached (403${named})`, retryAfter);
        case 429:
          throw new RetryableError(`Hunter's usage limit was reached (429${named}): the account's credits are used up`, retryAfter);
        case 400:
        case 422:
          throw new PermanentError(`Hunter refused the request (${status}${named})`);
        default:
          throw new RetryableError(`Hunter answered ${status}${named}`, retryAfter);
      }
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw new RetryableError('Hunter’s answer was not JSON');
      }
      let details;
      if (input.email) {
        const parsed = combinedAnswer.safeParse(json);
        if (!parsed.success) throw new RetryableError('Hunter’s answer did not have the documented shape');
        details = mapHunterAnswer(parsed.data.data.person, parsed.data.data.company);
      } else {
        const parsed = companyAnswer.safeParse(json);
        if (!parsed.success) throw new RetryableError('Hunter’s answer did not have the documented shape');
        details = mapHunterAnswer(null, parsed.data.data);
      }
      return details ? { kind: 'found', details } : { kind: 'not_found', detail: 'Hunter answered without any details' };
    },
  };
}

/** Hunter's error id (`claimed_email`, `authentication_failed`, …) from an error body, if it has one. */
function errorIdOf(body: string): string | undefined {
  try {
    return errorAnswer.safeParse(JSON.parse(body)).data?.errors[0]?.id;
  } catch {
    return undefined;
  }
}
