// From hand-built observations to classified items and findings: who decides an item's purpose,
// which visits count as before or after a choice, and each finding's pages, wording and order.
import { scanFinding, scannedItem } from '@consentry/events';
import { describe, expect, it } from 'vitest';
import { classifyCookie } from './cookie-database';
import { classifyObservation, maxListedPages, type ClassifyObservationOptions, type DeclaredService } from './findings';
import type { HostClassifier } from './known-hosts';
import type { ObservedCookie, PageObservation, PageVisit, ScanObservation, VisitMode } from './observation';

const origin = 'https://www.example.com';
const at = (path: string): string => `${origin}${path}`;

function cookie(name: string, domain = '.example.com', expires: string | null = '2027-01-01T00:00:00.000Z'): ObservedCookie {
  const host = domain.replace(/^\./, '');
  const firstParty = host === 'example.com' || host.endsWith('.example.com');
  return { name, domain, path: '/', expires, httpOnly: false, secure: true, sameSite: 'Lax', firstParty };
}

type VisitParts = Partial<Omit<PageVisit, 'mode'>>;

function visit(mode: VisitMode, url: string, parts: VisitParts = {}): PageVisit {
  return {
    mode,
    finalUrl: url,
    status: 200,
    bannerShown: true,
    choiceMade: mode !== 'before',
    cookies: [],
    localStorage: [],
    sessionStorage: [],
    thirdPartyHosts: [],
    refusedHosts: [],
    consentSignals: [],
    error: null,
    ...parts,
  };
}

/** A page whose three visits are `before`, `acceptAll`, `rejectAll` parts. */
function page(path: string, parts: Partial<Record<VisitMode, VisitParts>> = {}): PageObservation {
  const url = at(path);
  return {
    url,
    foundBy: path === '/' ? 'root' : 'link',
    visits: { before: visit('before', url, parts.before), acceptAll: visit('acceptAll', url, parts.acceptAll), rejectAll: visit('rejectAll', url, parts.rejectAll) },
  };
}

/** A page without the banner: no choice could be made on any visit. */
function pageWithoutBanner(path: string, parts: VisitParts = {}): PageObservation {
  const none = { bannerShown: false, choiceMade: false, ...parts };
  return page(path, { before: none, acceptAll: none, rejectAll: none });
}

function observation(pages: PageObservation[]): ScanObservation {
  return {
    rootUrl: at('/'),
    domain: 'example.com',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    truncated: false,
    pagesNotVisited: 0,
    sitemap: { url: at('/sitemap.xml'), found: false, pageUrls: 0 },
    pages,
  };
}

const noKnownHosts: HostClassifier = () => null;
const classify = (pages: PageObservation[], options: Partial<ClassifyObservationOptions> = {}) =>
  classifyObservation(observation(pages), { classify: classifyCookie, classifyHost: noKnownHosts, ...options });

const ga: DeclaredService = { purpose: 'analytics', name: 'Google Analytics', cookies: ['_ga', '_ga_*'] };

describe('classifying items', () => {
  it('takes purpose, platform, controller and retention from the database', () => {
    const { items } = classify([page('/', { before: { cookies: [cookie('_ga'), cookie('PHPSESSID', 'www.example.com', null)] } })]);
    expect(items).toEqual([
      {
        kind: 'cookie',
        name: 'PHPSESSID',
        domain: 'www.example.com',
        purpose: 'necessary',
        source: 'database',
        platform: 'PHP.net',
        controller: 'PHP.net',
        retention: 'Sessions',
        firstParty: true,
        firstSeenUrl: at('/'),
        seenBefore: true,
        seenAfterAccept: false,
        seenAfterReject: false,
      },
      {
        kind: 'cookie',
        name: '_ga',
        domain: 'example.com',
        purpose: 'analytics',
        source: 'database',
        platform: 'Google Analytics',
        controller: 'Google',
        retention: '2 years',
        firstParty: true,
        firstSeenUrl: at('/'),
        seenBefore: true,
        seenAfterAccept: false,
        seenAfterReject: false,
      },
    ]);
  });

  it('lets the owner’s assignment win over the database, by exact name or `prefix*`, for one kind or all', () => {
    const { items } = classify([page('/', { before: { cookies: [cookie('_ga'), cookie('_ga_ABC'), cookie('theme')], localStorage: ['theme', '_ga'] } })], {
      assignments: [
        { name: '_ga*', purpose: 'marketing' },
        { name: '_ga', purpose: 'necessary' },
        { name: 'theme', purpose: 'preferences', kind: 'localStorage' },
        { name: 'theme', purpose: null },
      ],
    });
    const purposes = items.map((item) => [item.kind, item.name, item.purpose, item.source, item.platform]);
    expect(purposes).toEqual([
      ['cookie', '_ga', 'necessary', 'owner', 'Google Analytics'],
      ['localStorage', '_ga', 'necessary', 'owner', 'Google Analytics'],
      ['cookie', '_ga_ABC', 'marketing', 'owner', 'Google Analytics'],
      ['cookie', 'theme', null, null, null],
      ['localStorage', 'theme', 'preferences', 'owner', null],
    ]);
  });

  it('uses a declared service’s purpose for names the database does not know, and not for those it knows', () => {
    const { items } = classify([page('/', { acceptAll: { cookies: [cookie('_shopstats'), cookie('_ga')] } })], {
      declared: [
        { purpose: 'analytics', name: 'Shop Stats', cookies: ['_shop*'] },
        { purpose: 'marketing', name: 'Wrongly filed', cookies: ['_ga'] },
      ],
    });
    expect(items.map((item) => [item.name, item.purpose, item.source, item.platform])).toEqual([
      ['_ga', 'analytics', 'database', 'Google Analytics'],
      ['_shopstats', 'analytics', 'owner', 'Shop Stats'],
    ]);
  });

  it('knows Consentry’s own choice cookie and keys as necessary', () => {
    const { items } = classify([page('/', { acceptAll: { cookies: [cookie('consentry_abc123', 'www.example.com')], localStorage: ['consentry:choice:abc123', 'consentry:visitor'] } })]);
    expect(items.map((item) => [item.name, item.purpose, item.source, item.platform])).toEqual([
      ['consentry:choice:abc123', 'necessary', 'database', 'Consentry'],
      ['consentry:visitor', 'necessary', 'database', 'Consentry'],
      ['consentry_abc123', 'necessary', 'database', 'Consentry'],
    ]);
  });

  it('leaves unknown names Unclassified, with the cookie’s own latest expiry as retention', () => {
    const { items } = classify([
      page('/', { before: { cookies: [cookie('mystery', '.example.com', '2027-01-01T00:00:00.000Z'), cookie('fleeting', 'www.example.com', null)] } }),
      page('/b', { before: { cookies: [cookie('mystery', 'example.com', '2028-06-01T00:00:00.000Z')] }, acceptAll: { sessionStorage: ['unknown_key'] } }),
    ]);
    expect(items.map((item) => [item.kind, item.name, item.domain, item.purpose, item.retention, item.firstSeenUrl])).toEqual([
      ['cookie', 'fleeting', 'www.example.com', null, 'session', at('/')],
      ['cookie', 'mystery', 'example.com', null, '2028-06-01T00:00:00.000Z', at('/')],
      ['sessionStorage', 'unknown_key', 'www.example.com', null, null, at('/b')],
    ]);
  });

  it('marks third-party cookies and keeps items of one name on different domains apart', () => {
    const { items } = classify([page('/', { before: { cookies: [cookie('IDE', '.doubleclick.net'), cookie('PHPSESSID', 'www.example.com'), cookie('PHPSESSID', 'blog.example.com')] } })]);
    expect(items.map((item) => [item.name, item.domain, item.firstParty, item.purpose])).toEqual([
      ['IDE', 'doubleclick.net', false, 'marketing'],
      ['PHPSESSID', 'blog.example.com', true, 'necessary'],
      ['PHPSESSID', 'www.example.com', true, 'necessary'],
    ]);
  });
});

describe('which visits count as before and after a choice', () => {
  it('counts Accept/Reject visits where a choice was made as after it', () => {
    const { items } = classify([page('/', { acceptAll: { cookies: [cookie('_fbp')] }, rejectAll: { cookies: [cookie('_gid')] } })]);
    expect(items.map((item) => [item.name, item.seenBefore, item.seenAfterAccept, item.seenAfterReject])).toEqual([
      ['_fbp', false, true, false],
      ['_gid', false, false, true],
    ]);
  });

  it('counts Accept/Reject visits where no choice could be made as before any choice', () => {
    const { items, findings } = classify([pageWithoutBanner('/', { cookies: [cookie('_fbp')] })]);
    expect(items.map((item) => [item.name, item.seenBefore, item.seenAfterAccept, item.seenAfterReject])).toEqual([['_fbp', true, false, false]]);
    expect(findings.map((finding) => finding.code)).toEqual(['set_before_consent', 'banner_missing', 'seen_not_declared']);
  });
});

describe('findings', () => {
  it('name non-necessary items set before any choice and still set after Reject All, with their pages', () => {
    const tracked = { cookies: [cookie('_ga'), cookie('PHPSESSID', 'www.example.com', null)], localStorage: ['_hjid'] };
    const { findings } = classify([page('/', { before: tracked, rejectAll: tracked }), page('/about', { before: tracked }), page('/contact')], {
      declared: [{ ...ga, cookies: ['_ga'] }],
    });
    expect(findings).toEqual([
      {
        code: 'set_before_consent',
        severity: 'critical',
        subject: '_ga',
        message: '_ga (analytics cookie on example.com, Google Analytics) is set before the visitor makes a choice, on 2 of 3 pages.',
        pages: [at('/'), at('/about')],
        pageCount: 2,
      },
      {
        code: 'set_before_consent',
        severity: 'critical',
        subject: '_hjid',
        message: '_hjid (analytics localStorage key on www.example.com, Hotjar) is set before the visitor makes a choice, on 2 of 3 pages.',
        pages: [at('/'), at('/about')],
        pageCount: 2,
      },
      {
        code: 'set_after_reject',
        severity: 'high',
        subject: '_ga',
        message: '_ga (analytics cookie on example.com, Google Analytics) is still set after the visitor chooses Reject All, on 1 of 3 pages.',
        pages: [at('/')],
        pageCount: 1,
      },
      {
        code: 'set_after_reject',
        severity: 'high',
        subject: '_hjid',
        message: '_hjid (analytics localStorage key on www.example.com, Hotjar) is still set after the visitor chooses Reject All, on 1 of 3 pages.',
        pages: [at('/')],
        pageCount: 1,
      },
      {
        code: 'seen_not_declared',
        severity: 'low',
        subject: '_hjid',
        message:
          "_hjid (analytics localStorage key on www.example.com, Hotjar) was seen on 2 of 3 pages but is not in the website's declared services: add it to the service that sets it.",
        pages: [at('/'), at('/about')],
        pageCount: 2,
      },
    ]);
  });

  it('count preferences as needing consent, and never necessary or Unclassified items', () => {
    const { findings } = classify([page('/', { before: { cookies: [cookie('PHPSESSID'), cookie('mystery'), cookie('theme')] } })], {
      assignments: [{ name: 'theme', purpose: 'preferences' }],
      declared: [{ purpose: 'preferences', name: 'Site settings', cookies: ['theme'] }],
    });
    expect(findings.map((finding) => [finding.code, finding.subject])).toEqual([
      ['set_before_consent', 'theme'],
      ['seen_not_declared', 'mystery'],
    ]);
  });

  it('ask the owner to classify or declare Unclassified items, and resolve once necessary or declared (where a declared purpose needs consent)', () => {
    const before = { before: { localStorage: ['cart_id'] } };
    const { findings } = classify([page('/', before)]);
    expect(findings).toEqual([
      {
        code: 'seen_not_declared',
        severity: 'low',
        subject: 'cart_id',
        message:
          "cart_id (unclassified localStorage key on www.example.com) was seen on 1 of 1 page but is not in the website's declared services: assign it a purpose (necessary needs no declaration), or declare it under a service.",
        pages: [at('/')],
        pageCount: 1,
      },
    ]);
    expect(classify([page('/', before)], { assignments: [{ name: 'cart_id', purpose: 'necessary' }] }).findings).toEqual([]);
    const declared = classify([page('/', before)], { declared: [{ purpose: 'preferences', name: 'Shop', cookies: ['cart_id'] }] });
    expect(declared.findings.map((finding) => [finding.code, finding.subject])).toEqual([['set_before_consent', 'cart_id']]);
  });

  it('merge items of one name on several domains into one finding', () => {
    const { findings } = classify([
      page('/', { before: { cookies: [cookie('_fbp', '.example.com')], localStorage: ['_fbp'] } }),
      page('/b', { before: { cookies: [cookie('_fbp', 'shop.example.com')] } }),
    ]);
    expect(findings.filter((finding) => finding.code === 'set_before_consent')).toEqual([
      {
        code: 'set_before_consent',
        severity: 'critical',
        subject: '_fbp',
        message:
          '_fbp (marketing cookie on example.com and shop.example.com; marketing localStorage key on www.example.com, Facebook) is set before the visitor makes a choice, on 2 of 2 pages.',
        pages: [at('/'), at('/b')],
        pageCount: 2,
      },
    ]);
  });

  it('name known tracker hosts contacted before any choice or after Reject All, by the database or by their own cookies', () => {
    const classifyHost: HostClassifier = (host) => (host === 'www.google-analytics.com' ? { purpose: 'analytics', platform: 'Google Analytics', controller: 'Google' } : null);
    const { findings, hosts } = classify(
      [
        page('/', {
          before: { thirdPartyHosts: ['www.google-analytics.com', 'ad.tracker.test', 'fonts.example.net'], cookies: [cookie('IDE', '.tracker.test')] },
          acceptAll: { thirdPartyHosts: ['connect.pixel.test'], cookies: [cookie('_fbp', '.pixel.test')] },
          rejectAll: { thirdPartyHosts: ['ad.tracker.test'] },
        }),
      ],
      { classifyHost, declared: [{ purpose: 'marketing', name: 'Ads', cookies: ['IDE', '_fbp'] }] },
    );
    expect(hosts).toEqual([
      { host: 'ad.tracker.test', purpose: 'marketing', tracker: true, platform: 'DoubleClick/Google Marketing', controller: 'Google', firstSeenUrl: at('/'), seenBefore: true, seenAfterAccept: false, seenAfterReject: true },
      { host: 'connect.pixel.test', purpose: 'marketing', tracker: true, platform: 'Facebook', controller: 'Facebook', firstSeenUrl: at('/'), seenBefore: false, seenAfterAccept: true, seenAfterReject: false },
      { host: 'fonts.example.net', purpose: null, tracker: false, platform: null, controller: null, firstSeenUrl: at('/'), seenBefore: true, seenAfterAccept: false, seenAfterReject: false },
      { host: 'www.google-analytics.com', purpose: 'analytics', tracker: true, platform: 'Google Analytics', controller: 'Google', firstSeenUrl: at('/'), seenBefore: true, seenAfterAccept: false, seenAfterReject: false },
    ]);
    expect(findings.map((finding) => [finding.code, finding.subject, finding.message])).toEqual([
      ['set_before_consent', 'IDE', 'IDE (marketing cookie on tracker.test, DoubleClick/Google Marketing) is set before the visitor makes a choice, on 1 of 1 page.'],
      ['set_before_consent', 'ad.tracker.test', 'ad.tracker.test (a known marketing host, DoubleClick/Google Marketing) is contacted before the visitor makes a choice, on 1 of 1 page.'],
      ['set_before_consent', 'www.google-analytics.com', 'www.google-analytics.com (a known analytics host, Google Analytics) is contacted before the visitor makes a choice, on 1 of 1 page.'],
      ['set_after_reject', 'ad.tracker.test', 'ad.tracker.test (a known marketing host, DoubleClick/Google Marketing) is contacted after the visitor chooses Reject All, on 1 of 1 page.'],
    ]);
  });

  it('list pages where the banner never appeared before any choice, leaving out pages that did not load', () => {
    const failed = page('/broken', { before: { status: null, finalUrl: null, bannerShown: false, error: 'net::ERR_CONNECTION_RESET' } });
    const { findings } = classify([page('/'), pageWithoutBanner('/plain'), failed, pageWithoutBanner('/other')]);
    expect(findings).toEqual([
      { code: 'banner_missing', severity: 'medium', subject: null, message: 'The banner did not appear on 2 of 4 pages.', pages: [at('/plain'), at('/other')], pageCount: 2 },
    ]);
  });

  it('name declared cookies no visit saw, once per name, and count a wildcard as seen by any match', () => {
    const { findings } = classify([page('/', { acceptAll: { cookies: [cookie('_ga_XYZ'), cookie('_fbp')] } })], {
      declared: [ga, { purpose: 'marketing', name: 'Meta Pixel', cookies: ['_fbp', '_fbc', ' ', '_ga'] }],
    });
    expect(findings).toEqual([
      { code: 'declared_not_seen', severity: 'low', subject: '_fbc', message: '_fbc is declared under Meta Pixel but was not seen on the 1 page scanned.', pages: [], pageCount: 0 },
      { code: 'declared_not_seen', severity: 'low', subject: '_ga', message: '_ga is declared under Google Analytics but was not seen on the 1 page scanned.', pages: [], pageCount: 0 },
    ]);
  });

  it('come most serious first, then by how many pages, then by subject, listing at most 50 pages', () => {
    const many = Array.from({ length: maxListedPages + 5 }, (_, index) => page(`/p${index}`, { before: { cookies: [cookie('_gid')] } }));
    const { findings } = classify([
      page('/', { before: { cookies: [cookie('_gcl_au'), cookie('_fbp')], bannerShown: false }, rejectAll: { cookies: [cookie('_fbp')] } }),
      ...many,
    ]);
    expect(findings.map((finding) => [finding.code, finding.severity, finding.subject, finding.pageCount, finding.pages.length])).toEqual([
      ['set_before_consent', 'critical', '_gid', 55, 50],
      ['set_before_consent', 'critical', '_fbp', 1, 1],
      ['set_before_consent', 'critical', '_gcl_au', 1, 1],
      ['set_after_reject', 'high', '_fbp', 1, 1],
      ['banner_missing', 'medium', null, 1, 1],
      ['seen_not_declared', 'low', '_gid', 55, 50],
      ['seen_not_declared', 'low', '_fbp', 1, 1],
      ['seen_not_declared', 'low', '_gcl_au', 1, 1],
    ]);
    expect(findings[0]!.pages.at(-1)).toBe(at('/p49'));
  });

  it('and items are exactly what the ScanCompleted event stores, long names and messages cut to its bounds', () => {
    const domains = Array.from({ length: 60 }, (_, index) => `sub${index}.example.com`);
    const longName = `_${'x'.repeat(255)}`;
    const { items, findings } = classify(
      [page('/', { before: { cookies: [...domains.map((domain) => cookie('_fbp', domain)), cookie(longName)], localStorage: ['cart_id'] } }), pageWithoutBanner('/plain')],
      { declared: [{ purpose: 'marketing', name: 'Ads', cookies: [`${'y'.repeat(400)}*`] }], assignments: [{ name: longName, purpose: 'marketing' }] },
    );
    for (const item of items) expect(scannedItem.parse(item)).toEqual(item);
    for (const finding of findings) expect(scanFinding.parse(finding)).toEqual(finding);
    expect(findings.find((finding) => finding.subject === '_fbp')!.message).toHaveLength(1000);
    expect(new Set(findings.map((finding) => finding.code))).toEqual(new Set(['set_before_consent', 'banner_missing', 'declared_not_seen', 'seen_not_declared']));
  });

  it('are none for a site that waits for consent and declares what it sets', () => {
    const { findings, items } = classify(
      [
        page('/', {
          before: { cookies: [cookie('PHPSESSID', 'www.example.com', null)] },
          acceptAll: { cookies: [cookie('PHPSESSID', 'www.example.com', null), cookie('_ga'), cookie('consentry_abc', 'www.example.com')] },
          rejectAll: { cookies: [cookie('PHPSESSID', 'www.example.com', null), cookie('consentry_abc', 'www.example.com')] },
        }),
      ],
      { declared: [ga] },
    );
    expect(findings.map((finding) => [finding.code, finding.subject])).toEqual([['declared_not_seen', '_ga_*']]);
    expect(items).toHaveLength(3);
  });
});
