// What the scanner saw on a website, before anything is classified: for each page, three visits in
// fresh browser profiles (before any choice, after Accept All, after Reject All) with the cookies,
// storage keys, third-party hosts and Consent Mode signals of each. findings.ts turns this into
// classified items and findings; nothing here depends on the cookie database.

/** The three visits every page gets, each in a fresh browser context. */
export const visitModes = ['before', 'acceptAll', 'rejectAll'] as const;
export type VisitMode = (typeof visitModes)[number];

export interface ObservedCookie {
  name: string;
  /** As the browser stores it: ".example.com" for a domain cookie, "www.example.com" for a host-only one. */
  domain: string;
  path: string;
  /** ISO date and time; null for a session cookie. */
  expires: string | null;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
  /** The cookie's domain is the website's domain or one of its subdomains. */
  firstParty: boolean;
}

/** A Google Consent Mode command the page queued: `gtag('consent', 'default' | 'update', {...})`. */
export interface ConsentModeSignal {
  command: 'default' | 'update';
  /** The signals as given (`ad_storage: 'denied'`…); non-string values are left out. */
  params: Record<string, string>;
}

export interface PageVisit {
  mode: VisitMode;
  /** Where the page ended up after redirects; null when it never loaded. */
  finalUrl: string | null;
  /** The HTTP status of the page itself; null when there was no response. */
  status: number | null;
  /** The banner's first layer became visible (before the visit's choice, if any). */
  bannerShown: boolean;
  /** The visit's button was clicked (false for `before`, and when the banner or the button never showed). */
  choiceMade: boolean;
  /**
   * What the browser held at the end of the visit: for `acceptAll`/`rejectAll`, after the choice
   * and a reload, so an item set before the choice and kept after it is included.
   */
  cookies: ObservedCookie[];
  /** Keys of the page's own origin. */
  localStorage: string[];
  sessionStorage: string[];
  /**
   * Hosts outside the website's domain the browser sent requests to (sorted; WebSockets and
   * redirect hops included): for `before`, during the whole visit; for `acceptAll`/`rejectAll`,
   * from the click on (including the reload), so a host contacted only before the choice is not
   * blamed on it. Refused hosts are not in it: nothing reached them.
   */
  thirdPartyHosts: string[];
  /** Hosts the address guard refused to connect to (private or unresolvable addresses), sorted. */
  refusedHosts: string[];
  /** Consent Mode commands on `window.dataLayer`, in order: after the click and after the reload for choice visits. */
  consentSignals: ConsentModeSignal[];
  /** What went wrong, if the visit did not complete (a timeout, a failed navigation); what was recorded is kept. */
  error: string | null;
}

export interface PageObservation {
  /** The address the crawl visited (no fragment). */
  url: string;
  /** How it was found: the root, a link on another page, or the sitemap. */
  foundBy: 'root' | 'link' | 'sitemap';
  visits: Record<VisitMode, PageVisit>;
}

export interface ScanObservation {
  rootUrl: string;
  /** The website's domain; same-site is this domain and its subdomains. */
  domain: string;
  startedAt: string;
  finishedAt: string;
  /** The scan stopped at its time limit before every planned page was visited. */
  truncated: boolean;
  /** Same-site pages found but not visited because of `maxPages`. */
  pagesNotVisited: number;
  sitemap: { url: string; found: boolean; pageUrls: number };
  pages: PageObservation[];
}
