// The Hunter.io adapter against a loopback server that answers in the shapes and status codes Hunter's
// API documentation gives (hunter-server.test-helper.ts): what it maps, what it retries, what ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHunterEnrichmentProvider } from './hunter-provider';
import { HunterServer, hunterTestKey } from './hunter-server.test-helper';
import { PermanentError, RetryableError, type EnrichmentResult } from './provider';

const hunter = new HunterServer();
beforeAll(() => hunter.start());
afterAll(() => hunter.close());

const call = () => ({ id: crypto.randomUUID(), signal: AbortSignal.timeout(5_000) });
const provider = () => createHunterEnrichmentProvider({ apiKey: hunterTestKey, baseUrl: hunter.baseUrl });
const enrich = (email: string | null, domain: string | null = null): Promise<EnrichmentResult> => provider().enrich({ email, domain, company: null }, call());

describe('an email Hunter knows', () => {
  it('becomes the person’s details with their company’s, the key sent in a header and never in the URL', async () => {
    expect(await enrich('grace@compilers.example')).toEqual({
      kind: 'found',
      details: {
        name: 'Grace Hopper',
        title: 'Rear Admiral of Code',
        company: 'Compilers Inc',
        domain: 'compilers.example',
        industry: 'Internet Software & Services',
        size: '51-250',
        linkedinUrl: 'https://www.linkedin.com/in/grace-hopper-cobol',
        location: 'Arlington, Virginia, United States',
      },
    });
    expect(hunter.requestsFor('grace@compilers.example')).toEqual([{ path: '/v2/combined/find', subject: 'grace@compilers.example', keyIn: 'header', step: 'found' }]);
  });

  it('known only by its company gives the company’s details and LinkedIn page', async () => {
    hunter.script('info@compilers.example', ['company_only']);
    expect(await enrich('info@compilers.example')).toEqual({
      kind: 'found',
      details: {
        name: null,
        title: null,
        company: 'Compilers Inc',
        domain: 'compilers.example',
        industry: 'Internet Software & Services',
        size: '51-250',
        linkedinUrl: 'https://www.linkedin.com/company/compilers-inc',
        location: 'Philadelphia, Pennsylvania, United States',
      },
    });
  });
});

describe('a company domain without an email', () => {
  it('is asked of the Company Enrichment endpoint', async () => {
    const result = await enrich(null, 'compilers.example');
    expect(result).toMatchObject({ kind: 'found', details: { company: 'Compilers Inc', domain: 'compilers.example', name: null } });
    expect(hunter.requestsFor('compilers.example')[0]?.path).toBe('/v2/companies/find');
  });

  it('nor a domain is nothing to ask: not found, and Hunter is not called', async () => {
    const before = hunter.requests.length;
    expect(await provider().enrich({ email: null, domain: null, company: 'Compilers Inc' }, call())).toMatchObject({ kind: 'not_found' });
    expect(hunter.requests.length).toBe(before);
  });
});

describe('Hunter’s documented refusals', () => {
  it('404: nobody known', async () => {
    hunter.script('nobody@compilers.example', ['not_found']);
    expect(await enrich('nobody@compilers.example')).toEqual({ kind: 'not_found' });
  });

  it('451 claimed_email: the person asked not to be processed, so it ends as not found and keeps nothing', async () => {
    hunter.script('private@compilers.example', ['claimed']);
    const result = await enrich('private@compilers.example');
    expect(result).toEqual({ kind: 'not_found', detail: expect.stringContaining('451 claimed_email') });
  });

  it('401: a refused key is permanent, and says which setting to check', async () => {
    const wrongKey = createHunterEnrichmentProvider({ apiKey: 'wrong0123456789abcdef', baseUrl: hunter.baseUrl });
    const error = await wrongKey.enrich({ email: 'grace@compilers.example', domain: null, company: null }, call()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PermanentError);
    expect((error as Error).message).toBe('Hunter refused the API key (401 authentication_failed): check HUNTER_API_KEY');
    expect((error as Error).message).not.toContain('wrong0123456789abcdef');
  });

  it('400: an input Hunter refuses is permanent', async () => {
    hunter.script('odd@compilers.example', ['bad_input']);
    await expect(enrich('odd@compilers.example')).rejects.toBeInstanceOf(PermanentError);
  });

  it.each([
    ['403 (the rate limit)', 'rate_limited', /rate limit was reached \(403/],
    ['429 (the usage limit)', 'usage_limited', /usage limit was reached \(429/],
    ['202 (still working)', 'in_progress', /still working/],
    ['500', 'server_error', /answered 500/],
    ['a 200 that is not JSON', 'garbage', /not JSON/],
  ] as const)('%s is retried', async (_label, step, message) => {
    const email = `${step}@compilers.example`;
    hunter.script(email, [step, 'found']);
    const error = await enrich(email).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RetryableError);
    expect((error as Error).message).toMatch(message);
    expect(await enrich(email)).toMatchObject({ kind: 'found' });
  });
});
