// A loopback stand-in for Hunter.io's enrichment API, answering in the shapes its public documentation
// gives (https://hunter.io/api-documentation/v2, "Combined Enrichment", "Company Enrichment",
// "Errors"): { data: { person, company }, meta } for /v2/combined/find, { data: company } for
// /v2/companies/find, and { errors: [{ id, code, details }] } with the documented status codes. The
// key is accepted in X-API-KEY or `api_key`, as the docs allow; anything else is 401.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HunterStep = 'found' | 'company_only' | 'not_found' | 'claimed' | 'rate_limited' | 'usage_limited' | 'in_progress' | 'server_error' | 'garbage' | 'bad_input';

export const hunterTestKey = 'test0123456789abcdef0123456789abcdef0123';

/** A Clearbit-shaped person, as Hunter documents it (values of our own). */
export const hunterPerson = {
  id: '0b7c3c8e-5a7e-4c8e-9f6c-3a1f6b2d9e11',
  name: { fullName: 'Grace Hopper', givenName: 'Grace', familyName: 'Hopper' },
  email: 'grace@compilers.example',
  location: 'Arlington, Virginia, United States',
  timeZone: 'America/New_York',
  utcOffset: -5,
  geo: { city: 'Arlington', state: 'Virginia', stateCode: 'VA', country: 'United States', countryCode: 'US', lat: 38.88, lng: -77.1 },
  bio: null,
  site: null,
  avatar: null,
  employment: { domain: 'compilers.example', name: 'Compilers Inc', title: 'Rear Admiral of Code', role: 'engineering', subRole: null, seniority: 'executive' },
  facebook: { handle: null },
  github: { handle: null, id: null, avatar: null, company: null, blog: null, followers: null, following: null },
  twitter: { handle: null, id: null, bio: null, followers: null, following: null, statuses: null, favorites: null, location: null, site: null, avatar: null },
  linkedin: { handle: 'grace-hopper-cobol' },
  googleplus: { handle: null },
  gravatar: { handle: null, urls: [], avatar: null, avatars: [] },
  fuzzy: false,
  emailProvider: 'compilers.example',
  indexedAt: '2025-01-10',
  phone: null,
  activeAt: '2025-01-10',
  inactiveAt: null,
};

export const hunterCompany = {
  id: '2f1d8a6b-7c3e-4b5a-8d9e-1c2b3a4d5e6f',
  name: 'Compilers Inc',
  legalName: 'Compilers Incorporated',
  domain: 'compilers.example',
  domainAliases: [],
  site: { phoneNumbers: [], emailAddresses: [] },
  category: {
    sector: 'Information Technology',
    industryGroup: 'Software & Services',
    industry: 'Internet Software & Services',
    subIndustry: 'Internet',
    gicsCode: '45103010',
    sicCode: '73',
    sic4Codes: [],
    naicsCode: '51',
    naics6Codes: [],
    naics6Codes2022: [],
  },
  tags: ['compilers'],
  description: 'Makes machines understand people.',
  foundedYear: 1952,
  location: 'Philadelphia, Pennsylvania, United States',
  timeZone: 'America/New_York',
  utcOffset: -5,
  geo: { city: 'Philadelphia', state: 'Pennsylvania', stateCode: 'PA', country: 'United States', countryCode: 'US', lat: 39.95, lng: -75.16 },
  logo: null,
  facebook: { handle: null, likes: null },
  linkedin: { handle: 'company/compilers-inc' },
  twitter: { handle: null },
  crunchbase: { handle: null },
  emailProvider: 'compilers.example',
  type: 'private',
  ticker: null,
  identifiers: { usEIN: null },
  phone: null,
  metrics: { alexaUsRank: null, alexaGlobalRank: null, trafficRank: 'high', employees: '51-250', marketCap: null, raised: null, annualRevenue: null, estimatedAnnualRevenue: null, fiscalYearEnd: null },
  indexedAt: '2025-01-10',
  tech: [],
  techCategories: [],
  parent: { domain: null },
  ultimateParent: { domain: null },
};

const errorBody = (code: number, id: string, details: string) => JSON.stringify({ errors: [{ id, code, details }] });

export class HunterServer {
  readonly requests: { path: string; subject: string; keyIn: 'header' | 'query' | 'none'; step: HunterStep | 'unauthorised' }[] = [];
  private readonly scripts = new Map<string, readonly HunterStep[]>();
  private server!: Server;
  baseUrl = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      const headerKey = request.headers['x-api-key'];
      const queryKey = url.searchParams.get('api_key');
      const keyIn = headerKey ? 'header' : queryKey ? 'query' : 'none';
      const subject = url.searchParams.get('email') ?? url.searchParams.get('domain') ?? '';
      const json = (status: number, body: string) => response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(body);
      if ((headerKey ?? queryKey) !== hunterTestKey) {
        this.requests.push({ path: url.pathname, subject, keyIn, step: 'unauthorised' });
        return json(401, errorBody(401, 'authentication_failed', 'No user found for the API key supplied'));
      }
      const script = this.scripts.get(subject) ?? ['found'];
      const seen = this.requests.filter((entry) => entry.subject === subject).length;
      const step = script[Math.min(seen, script.length - 1)]!;
      this.requests.push({ path: url.pathname, subject, keyIn, step });
      switch (step) {
        case 'found':
          if (url.pathname === '/v2/companies/find') return json(200, JSON.stringify({ data: hunterCompany, meta: { domain: subject } }));
          return json(200, JSON.stringify({ data: { person: { ...hunterPerson, email: subject }, company: hunterCompany }, meta: { email: subject } }));
        case 'company_only':
          return json(200, JSON.stringify({ data: { person: null, company: hunterCompany }, meta: { email: subject } }));
        case 'not_found':
          return json(404, errorBody(404, 'not_found', 'No person was found for this email address'));
        case 'claimed':
          return json(451, errorBody(451, 'claimed_email', 'The person owning the email address asked us to stop processing their data'));
        case 'rate_limited':
          return json(403, errorBody(403, 'too_many_requests', 'You have reached the rate limit'));
        case 'usage_limited':
          return json(429, errorBody(429, 'too_many_requests', 'You have reached your usage limit'));
        case 'in_progress':
          return json(202, JSON.stringify({ data: null, meta: { email: subject } }));
        case 'server_error':
          return json(500, errorBody(500, 'internal_error', 'Something went wrong'));
        case 'garbage':
          return json(200, '<html>maintenance</html>');
        case 'bad_input':
          return json(400, errorBody(400, 'invalid_email', 'The email is invalid'));
      }
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v2`;
  }

  script(subject: string, steps: readonly HunterStep[]): void {
    this.scripts.set(subject, steps);
  }

  requestsFor(subject: string) {
    return this.requests.filter((entry) => entry.subject === subject);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
