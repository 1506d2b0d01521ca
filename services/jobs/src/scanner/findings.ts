// From what a scan saw to what an owner reads: every cookie and storage key, classified (the
// owner's word first, then the Open Cookie Database), and the findings, most serious first.
// What counts as what (before any choice, purpose order, trackers): docs/scanner.md, "What counts as what".
import { findingCodes, type FindingCode, type ScanFinding, type ScannedItem } from '@consentry/events';
import type { ClassifyInput, CookieClassification, CookiePurpose, StorageKind } from './cookie-database';
import { isSameSite } from './crawl';
import { getDefaultHostClassifier, type HostClassifier } from './known-hosts';
import type { PageVisit, ScanObservation } from './observation';

export interface DeclaredService {
  purpose: CookiePurpose;
  name: string;
  /** Cookie and storage key names; `name*` matches by prefix. */
  cookies: readonly string[];
}

/** The owner's purpose for a name (`name*`: a prefix); null purposes (cleared) are ignored. */
export interface PurposeAssignment {
  name: string;
  purpose: CookiePurpose | null;
  /** Only items of this kind; all kinds when absent. */
  kind?: StorageKind;
}

export interface ClassifyObservationOptions {
  classify: (input: ClassifyInput) => CookieClassification | null;
  /** Known tracker hosts; defaults to the checked-in database's. */
  classifyHost?: HostClassifier;
  declared?: readonly DeclaredService[];
  assignments?: readonly PurposeAssignment[];
}

export interface ScannedHost {
  host: string;
  /** Set for known hosts; trackers are analytics or marketing. */
  purpose: CookiePurpose | null;
  tracker: boolean;
  platform: string | null;
  controller: string | null;
  firstSeenUrl: string;
  seenBefore: boolean;
  seenAfterAccept: boolean;
  seenAfterReject: boolean;
}

export type FindingSeverity = ScanFinding['severity'];

export const severityOf: Record<FindingCode, FindingSeverity> = {
  set_before_consent: 'critical',
  set_after_reject: 'high',
  banner_missing: 'medium',
  declared_not_seen: 'low',
  seen_not_declared: 'low',
};

/** The most pages a finding lists (`pageCount` has them all), as the ScanCompleted event bounds it. */
export const maxListedPages = 50;

/** Items and findings are exactly what the ScanCompleted event stores; hosts are for the report. */
export interface ClassifiedScan {
  items: ScannedItem[];
  hosts: ScannedHost[];
  findings: ScanFinding[];
}

type Moment = 'before' | 'afterAccept' | 'afterReject';

interface Sightings {
  firstPage: number;
  pages: Record<Moment, Set<number>>;
}

interface ItemSightings extends Sightings {
  kind: StorageKind;
  name: string;
  domain: string;
  firstParty: boolean;
  /** The latest expiry seen (ISO), null when only ever a session cookie. */
  expires: string | null;
}

interface ItemFacts {
  item: ScannedItem;
  sightings: ItemSightings;
  declared: boolean;
}

const textLimit = 300;
const maxMessageLength = 1000;
const clip = (text: string | null): string | null => (text == null ? null : text.slice(0, textLimit));
const kindWords: Record<StorageKind, string> = { cookie: 'cookie', localStorage: 'localStorage key', sessionStorage: 'sessionStorage key' };
const momentPhrases: Record<'before' | 'afterReject', { item: string; host: string }> = {
  before: { item: 'is set before the visitor makes a choice', host: 'is contacted before the visitor makes a choice' },
  afterReject: { item: 'is still set after the visitor chooses Reject All', host: 'is contacted after the visitor chooses Reject All' },
};

const stripDots = (domain: string): string => domain.toLowerCase().replace(/^\.+|\.+$/g, '');
const isOptional = (purpose: CookiePurpose | null): purpose is 'preferences' | 'analytics' | 'marketing' =>
  purpose === 'preferences' || purpose === 'analytics' || purpose === 'marketing';
const isTracking = (purpose: CookiePurpose | null): boolean => purpose === 'analytics' || purpose === 'marketing';
const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A name pattern as owners write it: exact, or `prefix*`. */
function patternMatches(pattern: string, name: string): boolean {
  const trimmed = pattern.trim();
  return trimmed.endsWith('*') ? name.startsWith(trimmed.slice(0, -1)) : name === trimmed;
}

/** How specific a matching pattern is: exact beats any prefix, a longer prefix beats a shorter one. */
function specificity(pattern: string): number {
  const trimmed = pattern.trim();
  return trimmed.endsWith('*') ? trimmed.length - 1 : Number.MAX_SAFE_INTEGER;
}

function bestMatch<T>(candidates: readonly T[], patternOf: (candidate: T) => string, name: string): T | null {
  let best: T | null = null;
  for (const candidate of candidates) {
    if (!patternMatches(patternOf(candidate), name)) continue;
    if (best == null || specificity(patternOf(candidate)) > specificity(patternOf(best))) best = candidate;
  }
  return best;
}

/** Consentry's own storage: the visitor's choice (cookie `consentry_<code>`, keys `consentry:…`). */
function consentryOwn(kind: StorageKind, name: string): boolean {
  return kind === 'cookie' ? name.startsWith('consentry_') : name.startsWith('consentry:');
}

/** Which moment a visit's records belong to; see the module comment. */
function momentOf(visit: PageVisit): Moment {
  if (visit.mode === 'before' || !visit.choiceMade) return 'before';
  return visit.mode === 'acceptAll' ? 'afterAccept' : 'afterReject';
}

function newSightings(firstPage: number): Sightings {
  return { firstPage, pages: { before: new Set(), afterAccept: new Set(), afterReject: new Set() } };
}

function laterExpiry(a: string | null, b: string | null): string | null {
  if (a == null) return b;
  if (b == null) return a;
  return a > b ? a : b;
}

/** Classifies what a scan saw and names each violation, most serious first. */
export function classifyObservation(observation: ScanObservation, options: ClassifyObservationOptions): ClassifiedScan {
  const declared = options.declared ?? [];
  const assignments = (options.assignments ?? []).filter((assignment) => assignment.purpose != null);
  const classifyHost = options.classifyHost ?? getDefaultHostClassifier();
  const pageUrls = observation.pages.map((page) => page.url);

  // 1. Gather every sighting, page by page in crawl order.
  const itemSightings = new Map<string, ItemSightings>();
  const hostSightings = new Map<string, Sightings>();
  const see = (kind: StorageKind, name: string, rawDomain: string, firstParty: boolean, page: number, moment: Moment, expires?: string | null): void => {
    const domain = stripDots(rawDomain);
    const key = `${kind}\u0000${name}\u0000${domain}`;
    let sightings = itemSightings.get(key);
    if (!sightings) {
      sightings = { ...newSightings(page), kind, name, domain, firstParty, expires: null };
      itemSightings.set(key, sightings);
    }
    sightings.pages[moment].add(page);
    if (expires !== undefined) sightings.expires = laterExpiry(sightings.expires, expires);
  };
  observation.pages.forEach((page, index) => {
    for (const visit of Object.values(page.visits)) {
      const moment = momentOf(visit);
      for (const cookie of visit.cookies) see('cookie', cookie.name, cookie.domain, cookie.firstParty, index, moment, cookie.expires);
      const origin = visit.finalUrl ?? page.url;
      let host: string;
      try {
        host = new URL(origin).hostname;
      } catch {
        continue;
      }
      for (const key of visit.localStorage) see('localStorage', key, host, true, index, moment);
      for (const key of visit.sessionStorage) see('sessionStorage', key, host, true, index, moment);
      for (const thirdParty of visit.thirdPartyHosts) {
        let sightings = hostSightings.get(thirdParty);
        if (!sightings) hostSightings.set(thirdParty, (sightings = newSightings(index)));
        sightings.pages[moment].add(index);
      }
    }
  });

  // 2. Classify each item.
  const facts: ItemFacts[] = [...itemSightings.values()].map((sightings) => classifyItem(sightings, options.classify, declared, assignments, pageUrls));
  facts.sort((a, b) => compareText(a.item.name, b.item.name) || compareText(a.item.kind, b.item.kind) || compareText(a.item.domain, b.item.domain));

  // 3. Third-party hosts, and which are trackers.
  const hosts: ScannedHost[] = [...hostSightings.entries()]
    .map(([host, sightings]) => classifyThirdPartyHost(host, sightings, classifyHost, facts, observation.domain, pageUrls))
    .sort((a, b) => compareText(a.host, b.host));

  // 4. Findings.
  const findings: ScanFinding[] = [];
  const pageTotal = observation.pages.length;
  const ofPages = (count: number): string => `on ${count} of ${plural(pageTotal, 'page')}`;
  const listPages = (indexes: Iterable<number>): { pages: string[]; pageCount: number } => {
    const sorted = [...new Set(indexes)].sort((a, b) => a - b);
    return { pages: sorted.slice(0, maxListedPages).map((index) => pageUrls[index]!), pageCount: sorted.length };
  };

  for (const moment of ['before', 'afterReject'] as const) {
    const code: FindingCode = moment === 'before' ? 'set_before_consent' : 'set_after_reject';
    const offending = facts.filter((fact) => isOptional(fact.item.purpose) && fact.sightings.pages[moment].size > 0);
    for (const group of groupByName(offending)) {
      const listed = listPages(group.flatMap((fact) => [...fact.sightings.pages[moment]]));
      findings.push({
        code,
        severity: severityOf[code],
        subject: group[0]!.item.name,
        message: `${describeItems(group)} ${momentPhrases[moment].item}, ${ofPages(listed.pageCount)}.`,
        ...listed,
      });
    }
    for (const host of hosts) {
      const sightings = hostSightings.get(host.host)!;
      if (!host.tracker || sightings.pages[moment].size === 0) continue;
      const listed = listPages(sightings.pages[moment]);
      const who = host.platform ? `, ${host.platform}` : '';
      findings.push({
        code,
        severity: severityOf[code],
        subject: host.host,
        message: `${host.host} (a known ${host.purpose} host${who}) ${momentPhrases[moment].host}, ${ofPages(listed.pageCount)}.`,
        ...listed,
      });
    }
  }

  const withoutBanner = observation.pages.flatMap((page, index) => (page.visits.before.status != null && !page.visits.before.bannerShown ? [index] : []));
  if (withoutBanner.length > 0) {
    const listed = listPages(withoutBanner);
    findings.push({
      code: 'banner_missing',
      severity: severityOf.banner_missing,
      subject: null,
      message: `The banner did not appear ${ofPages(listed.pageCount)}.`,
      ...listed,
    });
  }

  const reportedPatterns = new Set<string>();
  for (const service of declared) {
    for (const raw of service.cookies) {
      const pattern = raw.trim();
      if (pattern === '' || reportedPatterns.has(pattern)) continue;
      if (facts.some((fact) => patternMatches(pattern, fact.item.name))) continue;
      reportedPatterns.add(pattern);
      findings.push({
        code: 'declared_not_seen',
        severity: severityOf.declared_not_seen,
        subject: pattern,
        message: `${pattern} is declared under ${service.name} but was not seen on ${pageTotal === 1 ? 'the 1 page' : `any of the ${pageTotal} pages`} scanned.`,
        pages: [],
        pageCount: 0,
      });
    }
  }

  const undeclared = facts.filter((fact) => !fact.declared && (fact.item.purpose == null || isOptional(fact.item.purpose)));
  for (const group of groupByName(undeclared)) {
    const listed = listPages(group.flatMap((fact) => [...fact.sightings.pages.before, ...fact.sightings.pages.afterAccept, ...fact.sightings.pages.afterReject]));
    const unclassified = group.every((fact) => fact.item.purpose == null);
    const advice = unclassified
      ? ': assign it a purpose (necessary needs no declaration), or declare it under a service'
      : ': add it to the service that sets it';
    findings.push({
      code: 'seen_not_declared',
      severity: severityOf.seen_not_declared,
      subject: group[0]!.item.name,
      message: `${describeItems(group)} was seen ${ofPages(listed.pageCount)} but is not in the website's declared services${advice}.`,
      ...listed,
    });
  }

  const rank = (code: FindingCode): number => findingCodes.indexOf(code);
  findings.sort((a, b) => rank(a.code) - rank(b.code) || b.pageCount - a.pageCount || compareText(a.subject ?? '', b.subject ?? ''));
  // Within the ScanCompleted event's bounds (a name on dozens of subdomains makes a long message).
  for (const finding of findings) {
    if (finding.subject != null) finding.subject = finding.subject.slice(0, textLimit);
    if (finding.message.length > maxMessageLength) finding.message = `${finding.message.slice(0, maxMessageLength - 1)}…`;
  }
  return { items: facts.map((fact) => fact.item), hosts, findings };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function classifyItem(
  sightings: ItemSightings,
  classify: ClassifyObservationOptions['classify'],
  declared: readonly DeclaredService[],
  assignments: readonly PurposeAssignment[],
  pageUrls: readonly string[],
): ItemFacts {
  const { kind, name, domain } = sightings;
  const assignment = bestMatch(
    assignments.filter((candidate) => candidate.kind == null || candidate.kind === kind),
    (candidate) => candidate.name,
    name,
  );
  const declaredBy = bestMatch(
    declared.flatMap((service) => service.cookies.map((pattern) => ({ service, pattern }))),
    (candidate) => candidate.pattern,
    name,
  );
  const own = consentryOwn(kind, name);
  const database = own ? null : classify({ name, domain, kind });

  let purpose: CookiePurpose | null = null;
  let source: ScannedItem['source'] = null;
  if (assignment?.purpose != null) [purpose, source] = [assignment.purpose, 'owner'];
  else if (own) [purpose, source] = ['necessary', 'database'];
  else if (database) [purpose, source] = [database.purpose, 'database'];
  else if (declaredBy) [purpose, source] = [declaredBy.service.purpose, 'owner'];

  const ownRetention = kind === 'cookie' ? (sightings.expires ?? 'session') : null;
  const item: ScannedItem = {
    kind,
    name,
    domain,
    purpose,
    source,
    platform: clip(own ? 'Consentry' : (database?.platform ?? declaredBy?.service.name ?? null)),
    controller: clip(database?.controller ?? null),
    retention: clip(database?.retention ?? ownRetention),
    firstParty: sightings.firstParty,
    firstSeenUrl: pageUrls[sightings.firstPage]!,
    seenBefore: sightings.pages.before.size > 0,
    seenAfterAccept: sightings.pages.afterAccept.size > 0,
    seenAfterReject: sightings.pages.afterReject.size > 0,
  };
  return { item, sightings, declared: declaredBy != null };
}

function classifyThirdPartyHost(
  host: string,
  sightings: Sightings,
  classifyHost: HostClassifier,
  facts: readonly ItemFacts[],
  domain: string,
  pageUrls: readonly string[],
): ScannedHost {
  const known = classifyHost(host);
  // The host's own cookies: a cookie domain that is the host or a parent of it, outside the website.
  const ownCookies = facts.filter(
    (fact) =>
      fact.item.kind === 'cookie' &&
      fact.item.domain.includes('.') &&
      !isSameSite(fact.item.domain, domain) &&
      (host === fact.item.domain || host.endsWith(`.${fact.item.domain}`)),
  );
  const trackingCookie =
    ownCookies.find((fact) => fact.item.purpose === 'marketing') ?? ownCookies.find((fact) => fact.item.purpose === 'analytics');
  const byDatabase = known != null && isTracking(known.purpose) ? known : null;
  const evidence = byDatabase ?? (trackingCookie ? { purpose: trackingCookie.item.purpose!, platform: trackingCookie.item.platform, controller: trackingCookie.item.controller } : null);
  return {
    host,
    purpose: evidence?.purpose ?? known?.purpose ?? null,
    tracker: evidence != null,
    platform: clip(evidence?.platform ?? null),
    controller: clip(evidence?.controller ?? null),
    firstSeenUrl: pageUrls[sightings.firstPage]!,
    seenBefore: sightings.pages.before.size > 0,
    seenAfterAccept: sightings.pages.afterAccept.size > 0,
    seenAfterReject: sightings.pages.afterReject.size > 0,
  };
}

/** Facts grouped by item name, groups in the facts' order. */
function groupByName(facts: readonly ItemFacts[]): ItemFacts[][] {
  const groups = new Map<string, ItemFacts[]>();
  for (const fact of facts) {
    const group = groups.get(fact.item.name);
    if (group) group.push(fact);
    else groups.set(fact.item.name, [fact]);
  }
  return [...groups.values()];
}

/**
 * "_ga (analytics cookie on example.com, Google Analytics)"; several items of one name are listed
 * inside the brackets ("cart_id (unclassified localStorage key on a.example.com and b.example.com)").
 */
function describeItems(group: readonly ItemFacts[]): string {
  const domainsByWhat = new Map<string, string[]>();
  for (const { item } of group) {
    const what = `${item.purpose ?? 'unclassified'} ${kindWords[item.kind]}`;
    const domains = domainsByWhat.get(what);
    if (domains) domains.push(item.domain);
    else domainsByWhat.set(what, [item.domain]);
  }
  const parts = [...domainsByWhat].map(([what, domains]) => `${what} on ${listWords(domains)}`);
  const platforms = [...new Set(group.flatMap(({ item }) => (item.platform ? [item.platform] : [])))];
  const platform = platforms.length > 0 ? `, ${platforms.join(', ')}` : '';
  return `${group[0]!.item.name} (${parts.join('; ')}${platform})`;
}

/** "a", "a and b", "a, b and c" */
function listWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
