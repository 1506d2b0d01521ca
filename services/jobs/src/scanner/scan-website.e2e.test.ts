// The scanner in real headless Chromium against a loopback test site (test-site.test-helper.ts):
// what it crawls, what each of the three visits records, how the result is classified, and its
// limits — private addresses, maxPages, the scan deadline and a caller's abort (also while a page is
// being opened), a missing browser.
import { scanFinding, scannedItem } from '@consentry/events';
import { freePort, launchChromium, waitFor } from '@consentry/infra/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChromiumMissingError, launchScannerBrowser } from './browser';
import { getDefaultCookieClassifier } from './cookie-database';
import { classifyObservation, type DeclaredService } from './findings';
import type { ScanObservation } from './observation';
import { ScanError, scanWebsite, type ScanOptions } from './scan-website';
import { slowToOpenPages } from './slow-pages.test-helper';
import { allowTestHosts, serveTestSite, siteDomain, testLookup, type TestSite } from './test-site.test-helper';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const timing = { quietMs: 150, maxSettleMs: 3000, bannerWaitMs: 500 };

function optionsFor(site: TestSite, extra: Partial<ScanOptions> = {}): ScanOptions {
  return {
    rootUrl: site.url('/'),
    domain: siteDomain,
    isAllowedAddress: allowTestHosts,
    lookup: testLookup,
    timing,
    muteRequest: (url) => url === `http://consent.example.test:${site.port}/collect`,
    ...extra,
  };
}

/** The value with the site's port taken out of every address, so expectations can name pages. */
function withoutPort<T>(value: T, site: TestSite): T {
  return JSON.parse(JSON.stringify(value).replaceAll(`:${site.port}`, '')) as T;
}

const declared: DeclaredService[] = [
  { purpose: 'analytics', name: 'Google Analytics', cookies: ['_ga', '_ga_*'] },
  { purpose: 'marketing', name: 'Meta Pixel', cookies: ['_fbp', '_fbc'] },
];

const www = 'http://www.shop.example.test';
const blog = 'http://blog.shop.example.test';

describe('scanning a site whose analytics does not wait for consent', () => {
  let site: TestSite;
  let observation: ScanObservation;
  const progress: { pagesDone: number; pagesPlanned: number; url: string }[] = [];

  beforeAll(async () => {
    site = await serveTestSite();
    observation = await scanWebsite(browser, optionsFor(site, { onProgress: (update) => progress.push(update) }));
  }, 120_000);
  afterAll(async () => {
    await site?.close();
  });

  it('crawls the root, its same-site links breadth-first (a subdomain too), then pages only the sitemap lists', () => {
    const seen = withoutPort(observation, site);
    expect(seen.pages.map((page) => [page.url, page.foundBy])).toEqual([
      [`${www}/`, 'root'],
      [`${www}/about`, 'link'],
      [`${blog}/`, 'link'],
      [`${www}/hidden`, 'sitemap'],
      [`${www}/no-banner`, 'link'],
    ]);
    expect(seen).toMatchObject({ rootUrl: `${www}/`, domain: siteDomain, truncated: false, pagesNotVisited: 0, sitemap: { url: `${www}/sitemap.xml`, found: true, pageUrls: 3 } });
    expect(withoutPort(progress, site).map((update) => [update.pagesDone, update.url])).toEqual([
      [1, `${www}/`],
      [2, `${www}/about`],
      [3, `${blog}/`],
      [4, `${www}/hidden`],
      [5, `${www}/no-banner`],
    ]);
    expect(progress.every((update) => update.pagesPlanned >= update.pagesDone && update.pagesPlanned <= 25)).toBe(true);
  });

  it('never requests files, fragments or other sites’ pages', () => {
    expect(site.requests.filter((request) => /terms\.pdf|elsewhere/.test(request))).toEqual([]);
    expect(site.requests.some((request) => request.startsWith('www.shop.example.test /sitemap-pages.xml'))).toBe(true);
  });

  it('records cookies with their domain, expiry, flags and party', () => {
    const { before } = observation.pages[0]!.visits;
    const byName = Object.fromEntries(before.cookies.map((cookie) => [cookie.name, cookie]));
    expect(Object.keys(byName).sort()).toEqual(['IDE', 'PHPSESSID', '_ga', '_ga_XYZ123']);
    expect(byName.PHPSESSID).toEqual({ name: 'PHPSESSID', domain: 'www.shop.example.test', path: '/', expires: null, httpOnly: true, secure: false, sameSite: 'Lax', firstParty: true });
    expect(byName._ga).toMatchObject({ domain: '.shop.example.test', httpOnly: false, firstParty: true });
    const twoYears = Date.parse(byName._ga!.expires!) - Date.now();
    // Chromium caps cookie lifetimes at 400 days.
    expect(twoYears).toBeGreaterThan(399 * 86_400_000);
    expect(byName.IDE).toMatchObject({ domain: 'tracker.example.test', firstParty: false });
  });

  it('records each visit’s storage keys, third-party hosts, banner, choice and Consent Mode signals', () => {
    const root = observation.pages[0]!.visits;
    const denied = { ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' };
    const granted = { ad_storage: 'granted', analytics_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted' };
    const summary = (mode: 'before' | 'acceptAll' | 'rejectAll') => {
      const visit = root[mode];
      return {
        status: visit.status,
        bannerShown: visit.bannerShown,
        choiceMade: visit.choiceMade,
        localStorage: visit.localStorage,
        sessionStorage: visit.sessionStorage,
        thirdPartyHosts: visit.thirdPartyHosts,
        refusedHosts: visit.refusedHosts,
        consentSignals: visit.consentSignals,
        error: visit.error,
      };
    };
    expect(summary('before')).toEqual({
      status: 200,
      bannerShown: true,
      choiceMade: false,
      localStorage: ['cart_id'],
      sessionStorage: [],
      thirdPartyHosts: ['tracker.example.test'],
      refusedHosts: ['127.0.0.1'],
      consentSignals: [{ command: 'default', params: denied }],
      error: null,
    });
    // Signals after the click, then after the reload (where the stored choice is applied again).
    expect(summary('acceptAll')).toEqual({
      status: 200,
      bannerShown: true,
      choiceMade: true,
      localStorage: ['cart_id', 'consentry:choice:test'],
      sessionStorage: ['mp_abc_mixpanel'],
      thirdPartyHosts: ['pixel.example.test', 'tracker.example.test'],
      refusedHosts: ['127.0.0.1'],
      consentSignals: [
        { command: 'default', params: denied },
        { command: 'update', params: granted },
        { command: 'default', params: denied },
        { command: 'update', params: granted },
      ],
      error: null,
    });
    expect(summary('rejectAll')).toMatchObject({
      choiceMade: true,
      localStorage: ['cart_id', 'consentry:choice:test'],
      sessionStorage: [],
      thirdPartyHosts: ['tracker.example.test'],
      consentSignals: [
        { command: 'default', params: denied },
        { command: 'update', params: denied },
        { command: 'default', params: denied },
        { command: 'update', params: denied },
      ],
    });
    expect(root.acceptAll.cookies.map((cookie) => cookie.name).sort()).toEqual(['IDE', 'PHPSESSID', '_fbp', '_ga', '_ga_XYZ123', 'consentry_test']);
    expect(root.rejectAll.cookies.map((cookie) => cookie.name).sort()).toEqual(['IDE', 'PHPSESSID', '_ga', '_ga_XYZ123', 'consentry_test']);
  });

  it('clicks the banner by its structure whatever its texts say, and records pages without it', () => {
    for (const page of observation.pages.slice(0, 4)) {
      expect([page.visits.before.bannerShown, page.visits.acceptAll.choiceMade, page.visits.rejectAll.choiceMade]).toEqual([true, true, true]);
    }
    const plain = observation.pages[4]!.visits;
    expect([plain.before, plain.acceptAll, plain.rejectAll].map((visit) => [visit.bannerShown, visit.choiceMade, visit.cookies.map((cookie) => cookie.name)])).toEqual([
      [false, false, ['PHPSESSID']],
      [false, false, ['PHPSESSID']],
      [false, false, ['PHPSESSID']],
    ]);
  });

  it('lets no request reach a private address, a redirect or WebSocket to one included, and never sends the muted consent beacon', () => {
    expect(site.requests.filter((request) => request.startsWith('127.0.0.1'))).toEqual([]);
    expect(site.requests).toContain('www.shop.example.test /live');
    expect(site.requests.filter((request) => request.includes('/redirect-to-secret')).length).toBeGreaterThan(0);
    expect(site.requests.filter((request) => request.startsWith('consent.example.test'))).toEqual([]);
    expect(observation.pages.flatMap((page) => Object.values(page.visits).flatMap((visit) => visit.thirdPartyHosts))).not.toContain('consent.example.test');
  });

  it('classifies every item and names every violation, most serious first', () => {
    const classified = classifyObservation(observation, { classify: getDefaultCookieClassifier().classify, declared });
    // What the ScanCompleted event will store, as it is.
    for (const item of classified.items) expect(scannedItem.parse(item)).toEqual(item);
    for (const finding of classified.findings) expect(scanFinding.parse(finding)).toEqual(finding);
    const { items, findings } = withoutPort(classified, site);
    const expiry = (item: (typeof items)[number]) => (item.retention != null && /^\d{4}-/.test(item.retention) ? 'ISO date' : item.retention);
    expect(items.map((item) => [item.kind, item.name, item.domain, item.purpose, item.source, item.platform, expiry(item), item.firstParty, item.firstSeenUrl, item.seenBefore, item.seenAfterAccept, item.seenAfterReject])).toEqual([
      ['cookie', 'IDE', 'tracker.example.test', 'marketing', 'database', 'DoubleClick/Google Marketing', '2 years', false, `${www}/`, true, true, true],
      ['cookie', 'PHPSESSID', 'blog.shop.example.test', 'necessary', 'database', 'PHP.net', 'Sessions', true, `${blog}/`, true, true, true],
      ['cookie', 'PHPSESSID', 'www.shop.example.test', 'necessary', 'database', 'PHP.net', 'Sessions', true, `${www}/`, true, true, true],
      ['cookie', '_fbp', 'shop.example.test', 'marketing', 'database', 'Facebook', '4 months', true, `${www}/`, false, true, false],
      ['cookie', '_ga', 'shop.example.test', 'analytics', 'database', 'Google Analytics', '2 years', true, `${www}/`, true, true, true],
      ['cookie', '_ga_XYZ123', 'shop.example.test', 'analytics', 'database', 'Google Analytics', '2 years', true, `${www}/`, true, true, true],
      ['localStorage', 'cart_id', 'blog.shop.example.test', null, null, null, null, true, `${blog}/`, true, true, true],
      ['localStorage', 'cart_id', 'www.shop.example.test', null, null, null, null, true, `${www}/`, true, true, true],
      ['localStorage', 'consentry:choice:test', 'blog.shop.example.test', 'necessary', 'database', 'Consentry', null, true, `${blog}/`, false, true, true],
      ['localStorage', 'consentry:choice:test', 'www.shop.example.test', 'necessary', 'database', 'Consentry', null, true, `${www}/`, false, true, true],
      ['cookie', 'consentry_test', 'blog.shop.example.test', 'necessary', 'database', 'Consentry', 'ISO date', true, `${blog}/`, false, true, true],
      ['cookie', 'consentry_test', 'www.shop.example.test', 'necessary', 'database', 'Consentry', 'ISO date', true, `${www}/`, false, true, true],
      ['sessionStorage', 'mp_abc_mixpanel', 'blog.shop.example.test', 'analytics', 'database', 'Mixpanel', '1 year', true, `${blog}/`, false, true, false],
      ['sessionStorage', 'mp_abc_mixpanel', 'www.shop.example.test', 'analytics', 'database', 'Mixpanel', '1 year', true, `${www}/`, false, true, false],
    ]);

    const analyticsPages = [`${www}/`, `${www}/about`, `${blog}/`, `${www}/hidden`];
    expect(findings).toEqual([
      {
        code: 'set_before_consent',
        severity: 'critical',
        subject: '_ga',
        message: '_ga (analytics cookie on shop.example.test, Google Analytics) is set before the visitor makes a choice, on 4 of 5 pages.',
        pages: analyticsPages,
        pageCount: 4,
      },
      {
        code: 'set_before_consent',
        severity: 'critical',
        subject: '_ga_XYZ123',
        message: '_ga_XYZ123 (analytics cookie on shop.example.test, Google Analytics) is set before the visitor makes a choice, on 4 of 5 pages.',
        pages: analyticsPages,
        pageCount: 4,
      },
      {
        code: 'set_before_consent',
        severity: 'critical',
        subject: 'IDE',
        message: 'IDE (marketing cookie on tracker.example.test, DoubleClick/Google Marketing) is set before the visitor makes a choice, on 1 of 5 pages.',
        pages: [`${www}/`],
        pageCount: 1,
      },
      {
        code: 'set_before_consent',
        severity: 'critical',
        subject: 'tracker.example.test',
        message: 'tracker.example.test (a known marketing host, DoubleClick/Google Marketing) is contacted before the visitor makes a choice, on 1 of 5 pages.',
        pages: [`${www}/`],
        pageCount: 1,
      },
      {
        code: 'set_after_reject',
        severity: 'high',
        subject: '_ga',
        message: '_ga (analytics cookie on shop.example.test, Google Analytics) is still set after the visitor chooses Reject All, on 4 of 5 pages.',
        pages: analyticsPages,
        pageCount: 4,
      },
      {
        code: 'set_after_reject',
        severity: 'high',
        subject: '_ga_XYZ123',
        message: '_ga_XYZ123 (analytics cookie on shop.example.test, Google Analytics) is still set after the visitor chooses Reject All, on 4 of 5 pages.',
        pages: analyticsPages,
        pageCount: 4,
      },
      {
        code: 'set_after_reject',
        severity: 'high',
        subject: 'IDE',
        message: 'IDE (marketing cookie on tracker.example.test, DoubleClick/Google Marketing) is still set after the visitor chooses Reject All, on 1 of 5 pages.',
        pages: [`${www}/`],
        pageCount: 1,
      },
      {
        code: 'set_after_reject',
        severity: 'high',
        subject: 'tracker.example.test',
        message: 'tracker.example.test (a known marketing host, DoubleClick/Google Marketing) is contacted after the visitor chooses Reject All, on 1 of 5 pages.',
        pages: [`${www}/`],
        pageCount: 1,
      },
      {
        code: 'banner_missing',
        severity: 'medium',
        subject: null,
        message: 'The banner did not appear on 1 of 5 pages.',
        pages: [`${www}/no-banner`],
        pageCount: 1,
      },
      {
        code: 'declared_not_seen',
        severity: 'low',
        subject: '_fbc',
        message: '_fbc is declared under Meta Pixel but was not seen on any of the 5 pages scanned.',
        pages: [],
        pageCount: 0,
      },
      {
        code: 'seen_not_declared',
        severity: 'low',
        subject: 'cart_id',
        message:
          "cart_id (unclassified localStorage key on blog.shop.example.test and www.shop.example.test) was seen on 4 of 5 pages but is not in the website's declared services: assign it a purpose (necessary needs no declaration), or declare it under a service.",
        pages: analyticsPages,
        pageCount: 4,
      },
      {
        code: 'seen_not_declared',
        severity: 'low',
        subject: 'mp_abc_mixpanel',
        message:
          "mp_abc_mixpanel (analytics sessionStorage key on blog.shop.example.test and www.shop.example.test, Mixpanel) was seen on 3 of 5 pages but is not in the website's declared services: add it to the service that sets it.",
        pages: [`${www}/`, `${www}/about`, `${blog}/`],
        pageCount: 3,
      },
      {
        code: 'seen_not_declared',
        severity: 'low',
        subject: 'IDE',
        message:
          "IDE (marketing cookie on tracker.example.test, DoubleClick/Google Marketing) was seen on 1 of 5 pages but is not in the website's declared services: add it to the service that sets it.",
        pages: [`${www}/`],
        pageCount: 1,
      },
    ]);
  });
});

describe('a site whose scripts all wait for Accept All', () => {
  it('has no violation left, only what the owner still has to declare', async () => {
    const site = await serveTestSite({ fixed: true });
    try {
      const observation = await scanWebsite(browser, optionsFor(site, { maxPages: 2 }));
      const { findings } = classifyObservation(observation, { classify: getDefaultCookieClassifier().classify, declared });
      expect(findings.map((finding) => [finding.code, finding.subject, finding.pageCount])).toEqual([
        ['declared_not_seen', '_fbc', 0],
        ['seen_not_declared', 'cart_id', 2],
        ['seen_not_declared', 'mp_abc_mixpanel', 2],
      ]);
    } finally {
      await site.close();
    }
  });
});

describe('the limits of a scan', () => {
  it('visits at most maxPages pages and counts the rest', async () => {
    const site = await serveTestSite();
    try {
      const observation = await scanWebsite(browser, optionsFor(site, { maxPages: 2 }));
      expect(withoutPort(observation.pages.map((page) => page.url), site)).toEqual([`${www}/`, `${www}/about`]);
      // The blog, the sitemap's /hidden and /about's /no-banner are still queued.
      expect(observation).toMatchObject({ truncated: false, pagesNotVisited: 3 });
    } finally {
      await site.close();
    }
  });

  it('ends at its deadline with the pages it finished, marked truncated', async () => {
    // The home page, /about and the blog answer; /p/1 never does. The deadline is reached (through
    // `deadline`, as scanTimeoutMs would) once /p/1's visits wait for it, whatever the machine's speed.
    const site = await serveTestSite({ hangExtraPages: true, extraPages: 10 });
    try {
      const deadline = new AbortController();
      const scan = scanWebsite(browser, optionsFor(site, { deadline: deadline.signal, pageTimeoutMs: 60_000 }));
      await waitFor(() => site.requests.includes('www.shop.example.test /p/1'), { timeoutMs: 100_000, message: "/p/1's visits to start" });
      deadline.abort();
      const observation = await scan;
      expect(observation.truncated).toBe(true);
      expect(withoutPort(observation.pages.map((page) => page.url), site)).toEqual([`${www}/`, `${www}/about`, `${blog}/`]);
      // /p/2 to /p/10 and the pages found later.
      expect(observation.pagesNotVisited).toBeGreaterThanOrEqual(9);
      // Every page kept is whole: its three visits ended on their own, none cut short by the deadline.
      for (const page of observation.pages) expect(Object.values(page.visits).filter((visit) => visit.error === 'aborted')).toEqual([]);
    } finally {
      await site.close();
    }
  }, 120_000);

  it('ends at its deadline even when it comes while the browser is opening a page', async () => {
    // The deadline is reached while a scanning context's first page is being opened
    // (slowToOpenPages): closing the contexts leaves that call pending for ever, and the scan must
    // not wait for it.
    const site = await serveTestSite();
    try {
      const deadline = new AbortController();
      const slow = slowToOpenPages(browser, () => deadline.abort());
      const observation = await scanWebsite(slow.browser, optionsFor(site, { deadline: deadline.signal }));
      expect(slow.pagesAsked()).toBeGreaterThan(0);
      expect(observation).toMatchObject({ truncated: true, pages: [] });
    } finally {
      await site.close();
    }
  });

  it('reaches its deadline after scanTimeoutMs, keeping only whole pages', async () => {
    // /p/1 never answers and its visits outlast the time limit, so the scan cannot finish first.
    const site = await serveTestSite({ hangExtraPages: true, extraPages: 10 });
    try {
      const observation = await scanWebsite(browser, optionsFor(site, { scanTimeoutMs: 3_000, pageTimeoutMs: 60_000 }));
      expect(observation.truncated).toBe(true);
      expect(observation.pages.some((page) => page.url.includes('/p/'))).toBe(false);
      for (const page of observation.pages) expect(Object.values(page.visits).filter((visit) => visit.error === 'aborted')).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it('stops when the caller aborts while the browser is opening a page, rejecting with the reason', async () => {
    const site = await serveTestSite();
    try {
      const controller = new AbortController();
      const reason = new Error('runner stopping');
      const slow = slowToOpenPages(browser, () => controller.abort(reason));
      await expect(scanWebsite(slow.browser, optionsFor(site, { signal: controller.signal }))).rejects.toBe(reason);
      expect(slow.pagesAsked()).toBeGreaterThan(0);
    } finally {
      await site.close();
    }
  });

  it('stops when the caller aborts, rejecting with the reason', async () => {
    const site = await serveTestSite();
    try {
      const controller = new AbortController();
      const reason = new Error('owner cancelled');
      const scan = scanWebsite(browser, optionsFor(site, { signal: controller.signal, onProgress: () => controller.abort(reason) }));
      await expect(scan).rejects.toBe(reason);
    } finally {
      await site.close();
    }
  });

  it('refuses a root on a private address unless allowed, before any request', async () => {
    const site = await serveTestSite();
    try {
      const scan = scanWebsite(browser, { ...optionsFor(site), isAllowedAddress: undefined });
      await expect(scan).rejects.toThrow(ScanError);
      await expect(scan).rejects.toMatchObject({
        code: 'TARGET_REFUSED',
        message: 'www.shop.example.test resolves to a private or reserved address; only public websites can be scanned',
      });
      expect(site.requests).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it('fails clearly for a root that does not resolve, is on another domain, or does not answer', async () => {
    const base = { domain: siteDomain, isAllowedAddress: allowTestHosts, lookup: testLookup, timing };
    await expect(scanWebsite(browser, { ...base, rootUrl: 'https://www.shop.invalid/', domain: 'shop.invalid' })).rejects.toMatchObject({
      code: 'TARGET_REFUSED',
      message: "www.shop.invalid could not be resolved: check the website's address",
    });
    await expect(scanWebsite(browser, { ...base, rootUrl: 'https://www.other.example.test/' })).rejects.toMatchObject({
      code: 'INVALID_TARGET',
      message: "www.other.example.test is not on the website's domain shop.example.test",
    });
    const closedPort = await freePort();
    await expect(scanWebsite(browser, { ...base, rootUrl: `http://www.shop.example.test:${closedPort}/`, pageTimeoutMs: 15_000 })).rejects.toMatchObject({
      code: 'UNREACHABLE',
      message: `Could not load http://www.shop.example.test:${closedPort}/: the server could not be reached or sent no answer`,
    });
  });
});

describe('launching the scanner’s browser', () => {
  it('names the Debian package when Chromium is missing', async () => {
    await expect(launchScannerBrowser({ executablePath: '/nonexistent/chromium' })).rejects.toThrow(ChromiumMissingError);
    await expect(launchScannerBrowser({ executablePath: '/nonexistent/chromium' })).rejects.toThrow(
      'The scanner needs Chromium, which is not installed at /nonexistent/chromium: install the Debian package "chromium" (apt-get install chromium), or set CHROMIUM_PATH to its binary',
    );
  });

  it('launches the system Chromium when it is there', async () => {
    const scanner = await launchScannerBrowser();
    try {
      expect(scanner.isConnected()).toBe(true);
    } finally {
      await scanner.close();
    }
  });
});
