// The scanning engine: visits a website in headless Chromium and returns what it saw. It crawls
// same-site pages breadth-first from the root (its links, then its sitemap's pages), gives each
// page three visits in fresh contexts (before any choice, after Accept All, after Reject All), and
// stops cleanly at its time limit with what it has. Every connection the browser opens goes
// through a guard proxy (guard-proxy.ts) that reaches public addresses only, by installation
// verification's rules; the root must pass the guard or the scan fails with a ScanError.
// Classification and findings are findings.ts's job.
import { defaultScanPages, maxScanPages } from '@consentry/events';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { HostLookup } from '@consentry/infra';
import { createAddressGuard, type AddressAllowance, type AddressGuard } from './address-guard';
import { createCrawlQueue, isSameSite, maxPageUrlLength, pageUrlOf, parseSitemap, type FoundBy } from './crawl';
import { startGuardProxy, type GuardProxy } from './guard-proxy';
import { visitModes, type PageObservation, type PageVisit, type ScanObservation, type VisitMode } from './observation';
import { scanningContextOptions, unlessAborted, visitPage, type VisitSettings } from './visit';

export interface ScanOptions {
  /** Where the crawl starts, e.g. 'https://www.example.com/'. */
  rootUrl: string;
  /** The website's domain ('example.com'); same-site is this domain and its subdomains. */
  domain: string;
  /** Default 25. */
  maxPages?: number;
  /** Bounds each visit of a page (three per page, run side by side). Default 15 s. */
  pageTimeoutMs?: number;
  /** The whole scan; at the limit it ends with what it has, `truncated`. Default 5 min. */
  scanTimeoutMs?: number;
  /** Reaches the time limit when it aborts, if scanTimeoutMs has not passed first (tests pick the moment). */
  deadline?: AbortSignal;
  /** Lets a host with a private, loopback… address through (tests on loopback); default: none. */
  isAllowedAddress?: AddressAllowance;
  /** How hosts are resolved for the guard; default node:dns with all addresses. */
  lookup?: HostLookup;
  /** After each page. */
  onProgress?: (progress: { pagesDone: number; pagesPlanned: number; url: string }) => void;
  /** Aborting stops the scan and rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Requests answered locally with an empty 204 and never sent. The caller mutes Consentry's own
   * consent beacons, so a scan's clicks are not counted as visitors' choices.
   */
  muteRequest?: (url: string) => boolean;
  /** Default: the browser's own, without "Headless" (what a visitor's Chrome sends). */
  userAgent?: string;
  /** Waiting for pages; the defaults suit real sites, tests shorten them. */
  timing?: Partial<Pick<VisitSettings, 'quietMs' | 'maxSettleMs' | 'bannerWaitMs'>>;
}

export const scanDefaults = {
  maxPages: defaultScanPages,
  pageTimeoutMs: 15_000,
  scanTimeoutMs: 300_000,
  quietMs: 500,
  maxSettleMs: 5_000,
  bannerWaitMs: 2_000,
} as const;

const maxSitemapFiles = 10;
const maxSitemapBytes = 5 * 1024 * 1024;
const maxSitemapPages = 1000;

export type ScanErrorCode = 'INVALID_TARGET' | 'TARGET_REFUSED' | 'UNREACHABLE';

/** Why a scan could not run, in words an owner can act on. */
export class ScanError extends Error {
  constructor(
    readonly code: ScanErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ScanError';
  }
}

function validate(options: ScanOptions): { root: URL; maxPages: number } {
  let root: URL;
  try {
    root = new URL(options.rootUrl);
  } catch {
    throw new ScanError('INVALID_TARGET', `${options.rootUrl} is not a web address`);
  }
  if (options.rootUrl.length > maxPageUrlLength) throw new ScanError('INVALID_TARGET', `The address is longer than ${maxPageUrlLength} characters`);
  if (root.protocol !== 'http:' && root.protocol !== 'https:') {
    throw new ScanError('INVALID_TARGET', `Only http and https addresses can be scanned (got ${root.protocol})`);
  }
  if (!isSameSite(root.hostname, options.domain)) {
    throw new ScanError('INVALID_TARGET', `${root.hostname} is not on the website's domain ${options.domain}`);
  }
  const maxPages = options.maxPages ?? scanDefaults.maxPages;
  if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > maxScanPages) {
    throw new RangeError(`maxPages must be an integer from 1 to ${maxScanPages}`);
  }
  root.hash = '';
  return { root, maxPages };
}

async function refuseUnlessReachable(guard: AddressGuard, host: string): Promise<void> {
  const verdict = await guard.check(host);
  if (verdict.allowed) return;
  throw new ScanError(
    'TARGET_REFUSED',
    verdict.reason === 'unresolvable'
      ? `${host} could not be resolved: check the website's address`
      : `${host} resolves to a private or reserved address; only public websites can be scanned`,
  );
}

/**
 * What this browser says it is, minus "Headless": sites treat headless browsers differently.
 * Undefined when the scan stopped first (then no page is visited).
 */
async function visitorUserAgent(browser: Browser, signal: AbortSignal): Promise<string | undefined> {
  const context = await browser.newContext();
  try {
    const probe = async (): Promise<string> => {
      const page = await context.newPage();
      return page.evaluate<string>('navigator.userAgent');
    };
    const agent = await unlessAborted(signal, probe());
    return agent.replace(/HeadlessChrome/g, 'Chrome');
  } catch (error) {
    if (signal.aborted) return undefined;
    throw error;
  } finally {
    await context.close().catch(() => {});
  }
}

/**
 * The page addresses in the root's sitemap.xml and the sitemaps it indexes (bounded in files,
 * bytes and addresses), fetched by the browser through the same guard proxy. Gzipped sitemaps are
 * skipped: the browser would download them.
 */
async function readSitemap(browser: Browser, sitemapUrl: string, domain: string, settings: VisitSettings): Promise<{ found: boolean; pages: string[] }> {
  const pages: string[] = [];
  const files = [sitemapUrl];
  const seenFiles = new Set(files);
  let found = false;
  let context: BrowserContext | undefined;
  let proxy: GuardProxy | undefined;
  const onAbort = (): void => void context?.close().catch(() => {});
  settings.signal?.addEventListener('abort', onAbort, { once: true });
  const read = async (page: Page): Promise<void> => {
    for (let index = 0; index < files.length && index < maxSitemapFiles && pages.length < maxSitemapPages; index++) {
      const file = files[index]!;
      if (settings.signal?.aborted) break;
      if (/\.gz$/i.test(new URL(file).pathname)) continue;
      const response = await page.goto(file, { waitUntil: 'commit', timeout: settings.pageTimeoutMs }).catch(() => null);
      if (!response || response.status() !== 200) continue;
      if (Number(response.headers()['content-length'] ?? 0) > maxSitemapBytes) continue;
      const body = await response.body().catch(() => null);
      if (!body) continue;
      const parsed = parseSitemap(body.subarray(0, maxSitemapBytes).toString('utf8'));
      if (parsed.pages.length + parsed.sitemaps.length > 0) found = true;
      for (const address of parsed.pages) {
        const url = pageUrlOf(address, file, domain);
        if (url != null && pages.length < maxSitemapPages) pages.push(url);
      }
      for (const address of parsed.sitemaps) {
        let url: URL;
        try {
          url = new URL(address, file);
        } catch {
          continue;
        }
        url.hash = '';
        if ((url.protocol === 'http:' || url.protocol === 'https:') && isSameSite(url.hostname, domain) && !seenFiles.has(url.toString())) {
          seenFiles.add(url.toString());
          files.push(url.toString());
        }
      }
    }
  };
  try {
    proxy = await startGuardProxy(settings.guard);
    context = await browser.newContext(scanningContextOptions(proxy, settings.userAgent));
    if (settings.signal?.aborted) return { found, pages };
    const opened = context;
    // Closing the context on abort does not settle every call on it: stop waiting instead.
    await unlessAborted(settings.signal, opened.newPage().then(read));
  } catch {
    // A sitemap is a bonus: without one the crawl follows links.
  } finally {
    settings.signal?.removeEventListener('abort', onAbort);
    await context?.close().catch(() => {});
    await proxy?.close();
  }
  // A copy: reading may go on a moment after an abort.
  return { found, pages: [...pages] };
}

/** A failed load in an owner's words; the guard proxy turns every failed connection into an empty response. */
function describeLoadError(error: string | null): string {
  if (error == null || /ERR_EMPTY_RESPONSE/.test(error)) return 'the server could not be reached or sent no answer';
  if (/^Timeout/i.test(error) || error === 'timeout') return 'the page did not load in time';
  return error;
}

function isHtml(contentType: string | null): boolean {
  return contentType == null || /\b(?:text\/html|application\/xhtml\+xml)\b/i.test(contentType);
}

/** Visits the website and returns what each page did before and after each choice. */
export async function scanWebsite(browser: Browser, options: ScanOptions): Promise<ScanObservation> {
  const { root, maxPages } = validate(options);
  const domain = options.domain.toLowerCase();
  const startedAt = new Date().toISOString();
  const guard = createAddressGuard({ lookup: options.lookup, isAllowedAddress: options.isAllowedAddress });
  await refuseUnlessReachable(guard, root.hostname);
  options.signal?.throwIfAborted();

  // One controller stops everything: the caller's signal or the scan's deadline, whichever comes first.
  const stop = new AbortController();
  let deadlineReached = false;
  const reachDeadline = (): void => {
    if (stop.signal.aborted) return;
    deadlineReached = true;
    stop.abort(new Error('scan time limit reached'));
  };
  const deadline = setTimeout(reachDeadline, options.scanTimeoutMs ?? scanDefaults.scanTimeoutMs);
  options.deadline?.addEventListener('abort', reachDeadline, { once: true });
  if (options.deadline?.aborted) reachDeadline();
  const onCallerAbort = (): void => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });

  try {
    const settings: VisitSettings = {
      domain,
      guard,
      pageTimeoutMs: options.pageTimeoutMs ?? scanDefaults.pageTimeoutMs,
      quietMs: options.timing?.quietMs ?? scanDefaults.quietMs,
      maxSettleMs: options.timing?.maxSettleMs ?? scanDefaults.maxSettleMs,
      bannerWaitMs: options.timing?.bannerWaitMs ?? scanDefaults.bannerWaitMs,
      userAgent: options.userAgent ?? (await visitorUserAgent(browser, stop.signal)),
      muteRequest: options.muteRequest,
      signal: stop.signal,
    };

    const queue = createCrawlQueue();
    const rootUrl = root.toString();
    queue.add(rootUrl, 'root');
    const sitemapUrl = new URL('/sitemap.xml', root).toString();
    // Read while the root is visited; its pages are queued after the root's links.
    const sitemap = readSitemap(browser, sitemapUrl, domain, settings);
    let sitemapQueued = false;
    let sitemapResult: { found: boolean; pages: string[] } = { found: false, pages: [] };
    const queueSitemap = async (): Promise<void> => {
      if (sitemapQueued) return;
      sitemapQueued = true;
      sitemapResult = await sitemap;
      for (const url of sitemapResult.pages) queue.add(url, 'sitemap');
    };

    const pages: PageObservation[] = [];
    // Pages that turn out not to be pages (files, redirects elsewhere) cost time but no place.
    let attempts = 0;
    while (pages.length < maxPages && attempts < maxPages * 3 && !stop.signal.aborted) {
      const next = queue.next();
      if (!next) {
        if (sitemapQueued) break;
        await queueSitemap();
        continue;
      }
      attempts++;
      const results = await Promise.all(visitModes.map((mode) => visitPage(browser, next.url, mode, settings)));
      if (stop.signal.aborted) break; // the page is incomplete: left out
      const before = results[0]!;
      const page = acceptPage(next.url, next.foundBy, results, domain, queue);
      if (page === 'unreachable') {
        throw new ScanError('UNREACHABLE', `Could not load ${next.url}: ${describeLoadError(before.visit.error)}`);
      }
      if (page === 'off-site') {
        throw new ScanError('INVALID_TARGET', `${next.url} redirects to ${before.visit.finalUrl}, outside the website's domain ${domain}`);
      }
      if (page == null) continue;
      pages.push(page);
      for (const link of before.links) {
        const url = pageUrlOf(link, before.visit.finalUrl ?? next.url, domain);
        if (url != null) queue.add(url, 'link');
      }
      if (next.foundBy === 'root') await queueSitemap();
      options.onProgress?.({ pagesDone: pages.length, pagesPlanned: Math.min(maxPages, pages.length + queue.pending), url: next.url });
    }
    if (stop.signal.aborted && !deadlineReached) throw options.signal?.reason ?? new Error('scan aborted');
    if (!sitemapQueued && !stop.signal.aborted) await queueSitemap();
    else if (!sitemapQueued) sitemapResult = await sitemap;

    return {
      rootUrl,
      domain,
      startedAt,
      finishedAt: new Date().toISOString(),
      truncated: deadlineReached,
      pagesNotVisited: queue.pending,
      sitemap: { url: sitemapUrl, found: sitemapResult.found, pageUrls: sitemapResult.pages.length },
      pages,
    };
  } finally {
    clearTimeout(deadline);
    options.deadline?.removeEventListener('abort', reachDeadline);
    options.signal?.removeEventListener('abort', onCallerAbort);
    stop.abort();
  }
}

type VisitResult = Awaited<ReturnType<typeof visitPage>>;

/**
 * The page's observation, or why it is left out: a root that never loaded or left the domain fails
 * the scan; any other page that did not load, is no HTML page, left the domain or redirected to a
 * page already visited is skipped (null).
 */
function acceptPage(
  url: string,
  foundBy: FoundBy,
  results: VisitResult[],
  domain: string,
  queue: ReturnType<typeof createCrawlQueue>,
): PageObservation | 'unreachable' | 'off-site' | null {
  const before = results[0]!;
  const isRoot = foundBy === 'root';
  if (before.visit.status == null && before.visit.finalUrl == null) return isRoot ? 'unreachable' : null;
  const final = before.visit.finalUrl;
  if (final != null && final !== url) {
    let finalHost: string | null = null;
    try {
      finalHost = new URL(final).hostname;
    } catch {
      finalHost = null;
    }
    if (finalHost == null || !isSameSite(finalHost, domain)) return isRoot ? 'off-site' : null;
    const finalPage = pageUrlOf(final, final, domain);
    if (finalPage != null && finalPage !== url && !queue.markSeen(finalPage)) return null;
  }
  if (!isRoot && !isHtml(before.contentType)) return null;
  const visits = Object.fromEntries(visitModes.map((mode, index) => [mode, results[index]!.visit])) as Record<VisitMode, PageVisit>;
  return { url, foundBy, visits };
}
