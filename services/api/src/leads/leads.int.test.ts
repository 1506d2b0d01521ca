// Leads through app.inject() on a real database: the list (scoped to the viewer's websites, filtered,
// sorted, and paginated so that every lead is on exactly one page), a lead with its timeline and the
// link to its consent proof, the dashboard summary, the export and the audience files — from which a
// visitor who withdrew identification is always missing. The read model's rows are written directly
// (the leads projection has tests of its own); another owner's data is never in reach.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { saveAdmin } from '../auth/admins';
import { createPasswordHasher } from '../auth/passwords';
import { addWebsiteAs, buildTestApi, clientWith, registerOwner, signInAdmin, type Client, type SignedInUser, type TestApi } from '../testing/api-app';
import { leadExportColumns } from './routes';

let db: TestDatabase;
let api: TestApi;
let admin: Client;
let owner: SignedInUser;
let stranger: SignedInUser;
let shop: { id: string };
let blog: { id: string };
let foreign: { id: string };

interface LeadRow {
  websiteId: string;
  visitorId?: string;
  consentStatus?: 'granted' | 'withdrawn';
  consentEventId?: string;
  email?: string | null;
  name?: string | null;
  company?: string | null;
  source?: 'form' | 'call' | 'network' | null;
  identifiedAt?: string | null;
  lastSeen?: string;
  firstSeen?: string;
  pagesViewed?: number;
  engagedMs?: number;
  networkAsn?: number | null;
  networkOrganisation?: string | null;
  enrichmentStatus?: 'none' | 'pending' | 'enriched' | 'failed';
  enrichment?: Record<string, string | null> | null;
  enrichedAt?: string | null;
  searchText?: string | null;
}

const base = Date.parse('2025-03-10T12:00:00.000Z');
const minutes = (n: number) => new Date(base + n * 60_000).toISOString();

/** A row as the leads projection writes it (the search text and the company shown derived the same way). */
async function insertLead(row: LeadRow): Promise<string> {
  const visitorId = row.visitorId ?? randomUUID();
  const email = row.email === undefined ? `${visitorId.slice(0, 8)}@example.com` : row.email;
  const name = row.name ?? null;
  const displayCompany = row.enrichment?.company ?? row.company ?? row.networkOrganisation ?? null;
  const searchText =
    row.searchText !== undefined ? row.searchText : [email, name ?? row.enrichment?.name ?? null, displayCompany].filter((part) => part !== null).join(' ').toLowerCase() || null;
  await db.pool.query(
    `INSERT INTO leads (website_id, visitor_id, consent_status, consent_event_id, consent_changed_at, email, name, company, identification_source,
                        identified_at, network_asn, network_organisation, enrichment_status, enrichment, enrichment_provider, enriched_at,
                        first_seen, last_seen, pages_viewed, engaged_ms, search_text, display_company)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
    [
      row.websiteId,
      visitorId,
      row.consentStatus ?? 'granted',
      row.consentEventId ?? randomUUID(),
      minutes(0),
      email,
      name,
      row.company ?? null,
      row.source === undefined ? 'form' : row.source,
      row.identifiedAt === undefined ? minutes(1) : row.identifiedAt,
      row.networkAsn ?? null,
      row.networkOrganisation ?? null,
      row.enrichmentStatus ?? 'none',
      row.enrichment ? JSON.stringify(row.enrichment) : null,
      row.enrichment ? 'http' : null,
      row.enrichedAt ?? (row.enrichment ? minutes(2) : null),
      row.firstSeen ?? minutes(0),
      row.lastSeen ?? minutes(5),
      row.pagesViewed ?? 1,
      row.engagedMs ?? 0,
      searchText,
      displayCompany,
    ],
  );
  return visitorId;
}

const get = (client: Client, url: string) => client.request({ method: 'GET', url });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index++;
    } else cell += char;
  }
  return rows;
}

beforeAll(async () => {
  db = await createTestDatabase('api_leads', { poolSize: 10 });
  api = await buildTestApi(db.pool);
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  admin = await signInAdmin(api.app, 'root', 'admin password 1');
  owner = await registerOwner(api.app);
  await admin.request({
    method: 'PUT',
    url: `/api/admin/users/${owner.id}`,
    payload: { subscriptionTier: 'pro', subscriptionStatus: 'active', maxWebsites: 10, maxConsentsPerMonth: 100_000, isActive: true },
  });
  stranger = await registerOwner(api.app);
  shop = await addWebsiteAs(owner, 'Shop', 'shop.example.com');
  blog = await addWebsiteAs(owner, 'Blog', 'blog.example.com');
  foreign = await addWebsiteAs(stranger, 'Their shop', 'their.example.com');
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

describe('who sees which leads', () => {
  let mine: string;
  let theirs: string;
  let candidate: string;
  beforeAll(async () => {
    mine = await insertLead({ websiteId: shop.id, email: 'scope.mine@example.com', lastSeen: minutes(500) });
    theirs = await insertLead({ websiteId: foreign.id, email: 'scope.theirs@example.com', lastSeen: minutes(500) });
    // Allowed identification but was never identified: a candidate, no lead.
    candidate = await insertLead({ websiteId: shop.id, email: null, identifiedAt: null, source: null, searchText: null, lastSeen: minutes(500) });
  });

  it("an owner lists their own leads only, and never a visitor who is not identified", async () => {
    const response = await get(owner, '/api/leads?q=scope.&limit=200');
    expect(response.statusCode).toBe(200);
    expect(response.json().leads.map((lead: { email: string }) => lead.email)).toEqual(['scope.mine@example.com']);
    const all = await get(owner, '/api/leads?limit=200');
    const ids = all.json().leads.map((lead: { visitorId: string }) => lead.visitorId);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    expect(ids).not.toContain(candidate);
    expect((await get(stranger, '/api/leads?q=scope.')).json().leads.map((lead: { email: string }) => lead.email)).toEqual(['scope.theirs@example.com']);
  });

  it('an admin sees every website’s leads', async () => {
    const emails = (await get(admin, '/api/leads?q=scope.')).json().leads.map((lead: { email: string }) => lead.email);
    expect(emails.sort()).toEqual(['scope.mine@example.com', 'scope.theirs@example.com']);
  });

  it("answers 404, as if it did not exist, for another owner's website or lead, everywhere", async () => {
    for (const url of [
      `/api/leads?websiteId=${foreign.id}`,
      `/api/leads/summary?websiteId=${foreign.id}`,
      `/api/leads/export.csv?websiteId=${foreign.id}`,
      `/api/leads/audience.csv?websiteId=${foreign.id}&format=google`,
      `/api/leads/${foreign.id}/${theirs}`,
    ]) {
      const response = await get(owner, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code, url).toBe('WEBSITE_NOT_FOUND');
    }
    // The same website id with a visitor of mine does not get around it either.
    expect((await get(owner, `/api/leads/${foreign.id}/${mine}`)).statusCode).toBe(404);
    const unknown = await get(owner, `/api/leads/${shop.id}/${candidate}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 'LEAD_NOT_FOUND', message: 'Lead not found' } });
  });

  it('needs someone signed in', async () => {
    for (const url of ['/api/leads', '/api/leads/summary', '/api/leads/export.csv', '/api/leads/audience.csv?format=meta', `/api/leads/${shop.id}/${mine}`]) {
      expect((await api.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });
});

describe('the leads list', () => {
  let site: { id: string };
  let lister: SignedInUser;
  const visitors: Record<string, string> = {};
  beforeAll(async () => {
    // A website of its own, so the other tests' leads stay out of these lists.
    lister = await registerOwner(api.app);
    site = await addWebsiteAs(lister, 'Agency', 'agency.example.com');
    visitors.ada = await insertLead({
      websiteId: site.id,
      email: 'ada@lovelace.example',
      name: 'Ada Lovelace',
      company: 'Analytical Engines',
      identifiedAt: '2025-03-01T09:00:00.000Z',
      lastSeen: minutes(30),
      pagesViewed: 7,
      engagedMs: 95_500,
      enrichmentStatus: 'enriched',
      enrichment: { name: 'Ada King', title: 'Countess', company: 'Analytical Engines Ltd', domain: 'lovelace.example', industry: 'Computing', size: '11-50', linkedinUrl: 'https://www.linkedin.com/in/ada', location: 'London' },
    });
    visitors.grace = await insertLead({
      websiteId: site.id,
      email: 'grace@navy.example',
      company: 'US Navy',
      identifiedAt: '2025-03-05T09:00:00.000Z',
      lastSeen: minutes(20),
      enrichmentStatus: 'pending',
    });
    visitors.alan = await insertLead({
      websiteId: site.id,
      email: null,
      source: 'network',
      networkAsn: 64500,
      networkOrganisation: 'Bletchley Park',
      identifiedAt: '2025-03-07T09:00:00.000Z',
      lastSeen: minutes(10),
      consentStatus: 'withdrawn',
      enrichmentStatus: 'failed',
    });
    visitors.annie = await insertLead({
      websiteId: site.id,
      email: 'annie@easley.example',
      identifiedAt: '2025-02-20T09:00:00.000Z',
      lastSeen: minutes(40),
    });
  });
  const listOwner = () => lister;
  const emailsOf = async (query: string) =>
    (await get(listOwner(), `/api/leads?websiteId=${site.id}&${query}`)).json().leads.map((lead: { visitorId: string }) =>
      Object.keys(visitors).find((key) => visitors[key] === lead.visitorId),
    );

  it('answers each lead in the documented shape, most recently seen first by default', async () => {
    const response = await get(listOwner(), `/api/leads?websiteId=${site.id}`);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.nextCursor).toBeNull();
    expect(page.leads.map((lead: { visitorId: string }) => lead.visitorId)).toEqual([visitors.annie, visitors.ada, visitors.grace, visitors.alan]);
    expect(page.leads[1]).toEqual({
      websiteId: site.id,
      websiteName: 'Agency',
      visitorId: visitors.ada,
      email: 'ada@lovelace.example',
      name: 'Ada Lovelace',
      company: 'Analytical Engines Ltd',
      title: 'Countess',
      source: 'form',
      identifiedAt: '2025-03-01T09:00:00.000Z',
      firstSeen: minutes(0),
      lastSeen: minutes(30),
      pagesViewed: 7,
      engagedSeconds: 95,
      consentStatus: 'granted',
      enrichmentStatus: 'enriched',
    });
    expect(page.leads[3]).toMatchObject({ email: null, company: 'Bletchley Park', source: 'network', consentStatus: 'withdrawn' });
  });

  it.each([
    ['q=ADA', ['ada']],
    ['q=%20gr', ['grace']],
    ['q=a', ['annie', 'ada']],
    ['q=bletchley', ['alan']],
    ['q=nobody', []],
    ['company=analytical%20engines%20ltd', ['ada']],
    ['company=analytical', []],
    ['company=%20US%20Navy', ['grace']],
    ['status=withdrawn', ['alan']],
    ['status=granted', ['annie', 'ada', 'grace']],
    ['enrichment=pending', ['grace']],
    ['enrichment=none', ['annie']],
    ['from=2025-03-01&to=2025-03-05', ['ada', 'grace']],
    ['from=2025-03-01T09:00:00.001Z', ['grace', 'alan']],
    ['to=2025-02-28', ['annie']],
    ['sort=identifiedAt', ['alan', 'grace', 'ada', 'annie']],
    ['sort=identifiedAt&order=asc', ['annie', 'ada', 'grace', 'alan']],
    ['sort=email', ['ada', 'annie', 'alan', 'grace']],
    ['sort=email&order=desc', ['grace', 'alan', 'annie', 'ada']],
    ['sort=lastSeen&order=asc', ['alan', 'grace', 'ada', 'annie']],
  ])('%s → %j', async (query, expected) => {
    expect(await emailsOf(query)).toEqual(expected);
  });

  it.each([
    ['status=maybe', 'Status must be one of'],
    ['sort=name', 'Sort must be one of'],
    ['limit=0', 'Limit must be at least 1'],
    ['limit=201', 'Limit must be at most 200'],
    ['from=2025-03-05&to=2025-03-01', '`from` must be before `to`'],
    ['from=yesterday', 'From must be a date (YYYY-MM-DD)'],
    ['from=null&to=2030-09-06', 'From must be a date'],
    ['from=2025-03-01&to=%25', 'To must be a date'],
    [`q=${'a'.repeat(255)}`, 'Search must be at most'],
    ['owner=someone', 'owner'],
  ])('refuses %s with 400 naming the problem, on the list and the export', async (query, named) => {
    // The export takes the list's filters but no status, sort or limit.
    const paths = /^(status|sort|limit)=/.test(query) ? ['/api/leads'] : ['/api/leads', '/api/leads/export.csv'];
    for (const path of paths) {
      const response = await get(listOwner(), `${path}?${query}`);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().error.message).toContain(named);
    }
  });

  it('refuses a cursor it did not give out, or one of another sort, with 400', async () => {
    const page = (await get(listOwner(), `/api/leads?websiteId=${site.id}&limit=1`)).json();
    expect(page.nextCursor).toEqual(expect.any(String));
    for (const query of ['cursor=garbage', `cursor=${page.nextCursor}&sort=identifiedAt`, `cursor=${page.nextCursor}&order=asc`]) {
      const response = await get(listOwner(), `/api/leads?websiteId=${site.id}&${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('INVALID_CURSOR');
    }
  });
});

describe('paging through many leads', () => {
  let pager: SignedInUser;
  const expected = new Map<string, { websiteId: string; lastSeen: string; identifiedAt: string; searchText: string | null }>();
  beforeAll(async () => {
    pager = await registerOwner(api.app);
    await admin.request({
      method: 'PUT',
      url: `/api/admin/users/${pager.id}`,
      payload: { subscriptionTier: 'pro', subscriptionStatus: 'active', maxWebsites: 10, maxConsentsPerMonth: 100_000, isActive: true },
    });
    const sites = [await addWebsiteAs(pager, 'One', 'one.example.com'), await addWebsiteAs(pager, 'Two', 'two.example.com')];
    for (let index = 0; index < 47; index++) {
      const websiteId = sites[index % 2]!.id;
      // Many ties: eight distinct last-seen instants (one with microseconds), five identification
      // days, repeated emails across the websites, and a few leads with no search text (erased).
      const lastSeen = index % 8 === 7 ? '2025-03-10T12:07:00.123456Z' : minutes(index % 8);
      const identifiedAt = minutes(-(index % 5) * 1440);
      const erased = index % 11 === 3;
      const email = erased ? null : `${['zed', 'amy', 'bob', 'cy'][index % 4]}${index % 6}@example.com`;
      const searchText = erased ? null : email;
      const visitorId = await insertLead({ websiteId, email, lastSeen, identifiedAt, searchText, source: erased ? null : 'form' });
      expected.set(visitorId, { websiteId, lastSeen, identifiedAt, searchText });
    }
  });

  const compareBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  function referenceOrder(sort: 'lastSeen' | 'identifiedAt' | 'email', order: 'asc' | 'desc'): string[] {
    const direction = order === 'asc' ? 1 : -1;
    return [...expected.entries()]
      .sort(([visitorA, a], [visitorB, b]) => {
        let byKey: number;
        if (sort === 'email') {
          // Leads without a search text come last ascending, first descending (as the index keeps NULLs).
          if (a.searchText === null || b.searchText === null) byKey = a.searchText === b.searchText ? 0 : a.searchText === null ? 1 : -1;
          else byKey = compareBytes(a.searchText, b.searchText);
        } else {
          const [x, y] = sort === 'lastSeen' ? [a.lastSeen, b.lastSeen] : [a.identifiedAt, b.identifiedAt];
          byKey = Date.parse(x) - Date.parse(y) || (x < y ? -1 : x > y ? 1 : 0);
        }
        if (byKey !== 0) return byKey * direction;
        // Ties: website then visitor, ascending when descending and the reverse.
        const tie = a.websiteId.localeCompare(b.websiteId) || compareBytes(visitorA, visitorB);
        return -tie * direction;
      })
      .map(([visitorId]) => visitorId);
  }

  it.each([
    ['lastSeen', 'desc'],
    ['lastSeen', 'asc'],
    ['identifiedAt', 'desc'],
    ['identifiedAt', 'asc'],
    ['email', 'asc'],
    ['email', 'desc'],
  ] as const)('sorted by %s %s, pages of 5 hold every lead exactly once, in order', async (sort, order) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/leads?sort=${sort}&order=${order}&limit=5${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await get(pager, url);
      expect(response.statusCode, url).toBe(200);
      const page: { leads: { visitorId: string }[]; nextCursor: string | null } = response.json();
      expect(page.leads.length).toBeLessThanOrEqual(5);
      seen.push(...page.leads.map((lead) => lead.visitorId));
      cursor = page.nextCursor;
      pages++;
      expect(pages).toBeLessThan(20);
    } while (cursor !== null);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(referenceOrder(sort, order));
    expect(pages).toBe(Math.ceil(expected.size / 5));
  });
});

describe('a lead', () => {
  let visitorId: string;
  const consentEventId = randomUUID();
  beforeAll(async () => {
    visitorId = await insertLead({
      websiteId: blog.id,
      email: 'hedy@lamarr.example',
      name: 'Hedy',
      consentEventId,
      networkAsn: 64501,
      networkOrganisation: 'Frequency Hopping Inc',
      enrichmentStatus: 'enriched',
      enrichment: { name: 'Hedy Lamarr', title: 'Inventor', company: 'MGM', domain: 'lamarr.example', industry: 'Film', size: '1001-5000', linkedinUrl: null, location: 'Vienna' },
      enrichedAt: '2025-03-10T13:00:00.000Z',
    });
    // 510 timeline entries: the page shows the newest 500, newest first.
    await db.pool.query(
      `INSERT INTO lead_timeline (website_id, visitor_id, position, event_id, at, kind, detail)
       SELECT $1, $2, n, gen_random_uuid(), $3::timestamptz + make_interval(secs => n), CASE WHEN n = 510 THEN 'enriched' ELSE 'page_view' END,
              CASE WHEN n = 510 THEN '{"provider":"http"}'::jsonb ELSE jsonb_build_object('url', 'https://blog.example.com/p' || n) END
         FROM generate_series(1, 510) AS n`,
      [blog.id, visitorId, '2025-03-10T12:00:00.000Z'],
    );
  });

  it('answers its identity, network, enrichment, consent with the receipt link, and its newest 500 timeline entries', async () => {
    const response = await get(owner, `/api/leads/${blog.id}/${visitorId}`);
    expect(response.statusCode).toBe(200);
    const { lead, timeline } = response.json();
    expect(lead).toMatchObject({
      websiteId: blog.id,
      websiteName: 'Blog',
      visitorId,
      email: 'hedy@lamarr.example',
      name: 'Hedy',
      company: 'MGM',
      title: 'Inventor',
      network: { asn: 64501, organisation: 'Frequency Hopping Inc' },
      enrichment: {
        provider: 'http',
        enrichedAt: '2025-03-10T13:00:00.000Z',
        name: 'Hedy Lamarr',
        title: 'Inventor',
        company: 'MGM',
        domain: 'lamarr.example',
        industry: 'Film',
        size: '1001-5000',
        linkedinUrl: null,
        location: 'Vienna',
      },
      consentEventId,
      consentChangedAt: minutes(0),
      receiptUrl: `/api/consents/${consentEventId}/receipt`,
    });
    expect(timeline).toHaveLength(500);
    expect(timeline[0]).toEqual({ at: new Date(Date.parse('2025-03-10T12:00:00.000Z') + 510_000).toISOString(), kind: 'enriched', detail: { provider: 'http' } });
    expect(timeline[1]).toMatchObject({ kind: 'page_view', detail: { url: 'https://blog.example.com/p509' } });
    expect(timeline.at(-1)).toMatchObject({ detail: { url: 'https://blog.example.com/p11' } });
  });

  it('says whether an enrichment provider is configured, so a pending enrichment is not promised when none is', async () => {
    expect((await get(owner, `/api/leads/${blog.id}/${visitorId}`)).json().enrichmentOn).toBe(false);
    expect((await get(owner, `/api/leads?websiteId=${blog.id}`)).json().enrichmentOn).toBe(false);
    const withProvider = await buildTestApi(db.pool, { enrichmentOn: true });
    try {
      // Sessions live in the database: the same sign-in works on a second app over it.
      const response = await clientWith(withProvider.app, owner.cookie).request({ method: 'GET', url: `/api/leads/${blog.id}/${visitorId}` });
      expect(response.json().enrichmentOn).toBe(true);
      const list = await clientWith(withProvider.app, owner.cookie).request({ method: 'GET', url: `/api/leads?websiteId=${blog.id}` });
      expect(list.json().enrichmentOn).toBe(true);
    } finally {
      await withProvider.close();
    }
  });

  it('an admin may read it too; a stranger may not', async () => {
    expect((await get(admin, `/api/leads/${blog.id}/${visitorId}`)).statusCode).toBe(200);
    expect((await get(stranger, `/api/leads/${blog.id}/${visitorId}`)).statusCode).toBe(404);
  });
});

describe('the identification summary', () => {
  let counter: SignedInUser;
  let site: { id: string };
  beforeAll(async () => {
    counter = await registerOwner(api.app);
    site = await addWebsiteAs(counter, 'Counted', 'counted.example.com');
    const today = new Date().toISOString().slice(0, 10);
    const daysAgo = (days: number) => new Date(Date.parse(today) - days * 86_400_000).toISOString().slice(0, 10);
    await db.pool.query(
      `INSERT INTO lead_daily (website_id, day, allowed, identified) VALUES ($1, $2, 10, 3), ($1, $3, 6, 1), ($1, $4, 100, 100), ($5, $2, 50, 50)`,
      [site.id, today, daysAgo(5), daysAgo(40), foreign.id],
    );
    const thisMonth = `${today.slice(0, 7)}-01`;
    const lastMonth = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 2, 1)).toISOString().slice(0, 10);
    await db.pool.query(
      `INSERT INTO lead_resolutions (website_id, visitor_id, month, resolved_at) VALUES
         ($1, 'a', $2, now()), ($1, 'b', $2, now()), ($1, 'c', $3, now() - interval '40 days'), ($4, 'd', $2, now())`,
      [site.id, thisMonth, lastMonth, foreign.id],
    );
    // Leads by when they first allowed identification, and whether they still allow it.
    await db.pool.query(
      `INSERT INTO leads (website_id, visitor_id, consent_status, consent_event_id, consent_changed_at, first_seen, last_seen)
       SELECT website_id, visitor_id, status, gen_random_uuid(), now(), first_seen, now()
         FROM (VALUES ($1::uuid, 'w-today', 'withdrawn', now()), ($1, 'w-5-days', 'withdrawn', now() - interval '5 days'),
                      ($1, 'w-40-days', 'withdrawn', now() - interval '40 days'), ($1, 'g-today', 'granted', now()),
                      ($2::uuid, 'w-foreign', 'withdrawn', now())) AS rows (website_id, visitor_id, status, first_seen)`,
      [site.id, foreign.id],
    );
  });

  it('counts identified and allowed visitors over the last 30 days, their rate, those who withdrew since, and this month’s resolutions', async () => {
    const response = await get(counter, '/api/leads/summary');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ identified: 4, allowed: 16, withdrawn: 2, rate: 4 / 16, resolutionsThisMonth: 2, capAlerts: [] });
  });

  it('over a range of days, and with a null rate when nobody allowed identification', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await get(counter, `/api/leads/summary?websiteId=${site.id}&from=${today}&to=${today}`)).json()).toMatchObject({ identified: 3, allowed: 10, withdrawn: 1 });
    expect((await get(counter, '/api/leads/summary?from=2000-01-01&to=2000-01-31')).json()).toEqual({ identified: 0, allowed: 0, withdrawn: 0, rate: null, resolutionsThisMonth: 2, capAlerts: [] });
    expect((await get(counter, '/api/leads/summary?from=2025-02-01&to=2025-01-01')).statusCode).toBe(400);
  });

  it('shows the resolutions with the plan’s rate in the subscription usage', async () => {
    const usage = (await get(counter, '/api/subscription/usage')).json();
    expect(usage).toMatchObject({ resolutionsThisMonth: 2, subscriptionPlan: { perResolutionCents: null, dataTypes: ['b2c'] } });
  });
});

describe('the lead export', () => {
  let exporter: SignedInUser;
  let site: { id: string };
  beforeAll(async () => {
    exporter = await registerOwner(api.app);
    site = await addWebsiteAs(exporter, 'Exported', 'exported.example.com');
    await insertLead({
      websiteId: site.id,
      email: 'kept@example.com',
      name: '=HYPERLINK("http://evil.test","click")',
      company: '+cmd|" /C calc"!A0',
      identifiedAt: '2025-03-01T09:00:00.000Z',
      lastSeen: '2025-03-09T10:00:00.000Z',
      pagesViewed: 12,
      enrichmentStatus: 'enriched',
      enrichment: { name: null, title: '@SUM(1+1)', company: null, domain: 'example.com', industry: 'Retail', size: '51-200', linkedinUrl: 'https://www.linkedin.com/in/kept', location: 'Paris; France' },
    });
    await insertLead({ websiteId: site.id, email: 'gone@example.com', consentStatus: 'withdrawn', identifiedAt: '2025-03-02T09:00:00.000Z' });
    await insertLead({ websiteId: site.id, email: null, source: 'network', networkOrganisation: 'Network Co', identifiedAt: '2025-03-03T09:00:00.000Z' });
    await insertLead({ websiteId: site.id, email: 'never@example.com', identifiedAt: null, source: null });
  });

  it('is a CSV of the leads whose identification still stands, formulas neutralised', async () => {
    const response = await get(exporter, `/api/leads/export.csv?websiteId=${site.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="consentry-leads-exported\.example\.com-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parseCsv(response.body);
    expect(rows[0]).toEqual([...leadExportColumns]);
    expect(rows).toHaveLength(3);
    expect(response.body).not.toContain('gone@example.com');
    expect(response.body).not.toContain('never@example.com');
    const record = Object.fromEntries(leadExportColumns.map((column, index) => [column, rows[1]![index]]));
    expect(record).toEqual({
      email: 'kept@example.com',
      name: `'=HYPERLINK("http://evil.test","click")`,
      title: "'@SUM(1+1)",
      company: `'+cmd|" /C calc"!A0`,
      domain: 'example.com',
      industry: 'Retail',
      size: '51-200',
      linkedin: 'https://www.linkedin.com/in/kept',
      location: "'Paris; France",
      source: 'form',
      identifiedAt: '2025-03-01T09:00:00.000Z',
      lastSeen: '2025-03-09T10:00:00.000Z',
      pagesViewed: '12',
      consentStatus: 'granted',
      website: 'exported.example.com',
    });
    expect(rows[2]).toEqual(expect.arrayContaining(['', 'Network Co', 'network']));
  });

  it('applies the list’s filters', async () => {
    const rows = parseCsv((await get(exporter, `/api/leads/export.csv?q=kept`)).body);
    expect(rows.slice(1).map((row) => row[0])).toEqual(['kept@example.com']);
    expect(parseCsv((await get(exporter, `/api/leads/export.csv?from=2025-03-02`)).body).slice(1).map((row) => row[9])).toEqual(['network']);
  });

  it('leaves a lead out from the moment identification is withdrawn', async () => {
    const visitorId = await insertLead({ websiteId: site.id, email: 'changes.mind@example.com' });
    expect((await get(exporter, '/api/leads/export.csv')).body).toContain('changes.mind@example.com');
    await db.pool.query(`UPDATE leads SET consent_status = 'withdrawn' WHERE website_id = $1 AND visitor_id = $2`, [site.id, visitorId]);
    expect((await get(exporter, '/api/leads/export.csv')).body).not.toContain('changes.mind@example.com');
  });
});

describe('audience files', () => {
  let marketer: SignedInUser;
  let sites: { id: string }[];
  beforeAll(async () => {
    marketer = await registerOwner(api.app);
    await admin.request({
      method: 'PUT',
      url: `/api/admin/users/${marketer.id}`,
      payload: { subscriptionTier: 'pro', subscriptionStatus: 'active', maxWebsites: 10, maxConsentsPerMonth: 100_000, isActive: true },
    });
    sites = [await addWebsiteAs(marketer, 'Audience one', 'a1.example.com'), await addWebsiteAs(marketer, 'Audience two', 'a2.example.com')];
    await insertLead({ websiteId: sites[0]!.id, email: 'ada@example.com' });
    // The same person on both websites and twice on one: once in the file.
    await insertLead({ websiteId: sites[1]!.id, email: 'ada@example.com' });
    await insertLead({ websiteId: sites[1]!.id, email: 'bob@example.com' });
    await insertLead({ websiteId: sites[1]!.id, email: 'bob@example.com' });
    await insertLead({ websiteId: sites[0]!.id, email: 'withdrawn@example.com', consentStatus: 'withdrawn' });
    await insertLead({ websiteId: sites[0]!.id, email: null, source: 'network', networkOrganisation: 'No Email Co' });
    await insertLead({ websiteId: sites[0]!.id, email: 'candidate@example.com', identifiedAt: null, source: null });
  });

  it.each([
    ['google', 'Email'],
    ['meta', 'email'],
    ['linkedin', 'email,firstname,lastname,jobtitle,employeecompany,country,googleaid'],
  ] as const)('%s: the header %s and each standing email once, hashed', async (format, header) => {
    const response = await get(marketer, `/api/leads/audience.csv?format=${format}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="consentry-audience-${format}-all-websites-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    const [head, ...rows] = parseCsv(response.body);
    expect(head!.join(',')).toBe(header);
    const hashes = rows.map((row) => row[0]);
    expect(hashes.sort()).toEqual([sha256('ada@example.com'), sha256('bob@example.com')].sort());
    for (const row of rows) expect(row.slice(1).every((cell) => cell === '')).toBe(true);
    expect(response.body).not.toContain('@');
    expect(hashes).not.toContain(sha256('withdrawn@example.com'));
    expect(hashes).not.toContain(sha256('candidate@example.com'));
  });

  it('for one website only, and never with a lead who withdrew since the last file', async () => {
    const one = parseCsv((await get(marketer, `/api/leads/audience.csv?format=meta&websiteId=${sites[0]!.id}`)).body).slice(1);
    expect(one).toEqual([[sha256('ada@example.com')]]);
    await db.pool.query(`UPDATE leads SET consent_status = 'withdrawn' WHERE website_id = $1 AND email = 'ada@example.com'`, [sites[0]!.id]);
    expect(parseCsv((await get(marketer, `/api/leads/audience.csv?format=meta&websiteId=${sites[0]!.id}`)).body)).toEqual([['email']]);
  });

  it('refuses an unknown platform', async () => {
    const response = await get(marketer, '/api/leads/audience.csv?format=tiktok');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('Format must be one of');
    expect((await get(marketer, '/api/leads/audience.csv')).statusCode).toBe(400);
  });
});
