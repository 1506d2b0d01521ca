// Classifies a cookie or storage key the scanner found by the Open Cookie Database: which purpose
// it serves (the banner's purposes), who sets it, how long it lives. Unknown names are null, for the
// owner to assign. Which entry wins for a name: docs/scanner.md, "Matching a name in the database".
import type { Purpose } from '@consentry/events';
import { readCookieDatabase, type CookieDatabaseEntry, type DatabaseCategory } from './database';

export type CookiePurpose = Extract<Purpose, 'necessary' | 'preferences' | 'analytics' | 'marketing'>;

/** The database's categories as the banner's purposes. */
export const purposeOfCategory: Record<DatabaseCategory, CookiePurpose> = {
  Functional: 'necessary',
  Security: 'necessary',
  Necessary: 'necessary',
  Personalization: 'preferences',
  Analytics: 'analytics',
  Marketing: 'marketing',
};

export type StorageKind = 'cookie' | 'localStorage' | 'sessionStorage';

export interface ClassifyInput {
  name: string;
  /** The cookie's domain (".example.com"), or the host the item came from; optional. */
  domain?: string | null;
  kind: StorageKind;
}

export interface CookieClassification {
  purpose: CookiePurpose;
  /** The database's category, before mapping to a purpose. */
  category: DatabaseCategory;
  platform: string | null;
  controller: string | null;
  /** Free text as the database writes it. */
  retention: string | null;
  privacyPortal: string | null;
  databaseId: string;
  /** The entry's name: the exact name, or the prefix that matched. */
  databaseName: string;
  match: 'exact' | 'prefix';
}

export interface CookieClassifier {
  classify(input: ClassifyInput): CookieClassification | null;
  readonly entryCount: number;
}

interface IndexedEntry {
  entry: CookieDatabaseEntry;
  hosts: readonly string[];
  /** A prefix this entry matches by, beyond its exact name; null for exact-only entries. */
  prefix: string | null;
  /**
   * A short prefix without a separator at its end ("_s", "SR", "tp", "cap") would claim many
   * unrelated names ("_session", "SRV_ID", "captcha"): such a prefix counts only on its own host.
   */
  prefixNeedsHost: boolean;
}

type Candidate = { indexed: IndexedEntry; match: 'exact' | 'prefix'; prefixLength: number; hostMatches: boolean };

const separatorAtEnd = /[-_.:/]$/;
// Placeholders the database writes at the end of names instead of setting Wildcard match:
// "SSPR_*", "pm_sess_NNN", "pagead/conv/%INTEGER%".
const placeholderAtEnd = /(?:\*+|NNN|%INTEGER%)$/;
const hostName = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;
const browserNamePrefix = /^__(?:Host|Secure)-/;

/**
 * The prefix an entry matches by. Besides Wildcard match = 1, the database marks prefixes by a
 * placeholder at the end of the name, or leaves the flag off names that end in a separator
 * ("Hm_lvt_" is always followed by a site id): those are prefixes too. An exact name still
 * matches exactly first.
 */
export function prefixOf(entry: Pick<CookieDatabaseEntry, 'name' | 'wildcard'>): string | null {
  const withoutPlaceholder = entry.name.replace(placeholderAtEnd, '');
  if (withoutPlaceholder !== entry.name) return withoutPlaceholder === '' ? null : withoutPlaceholder;
  if (entry.wildcard || separatorAtEnd.test(entry.name)) return entry.name;
  return null;
}

/**
 * The hosts in a Domain field as the database writes it: ".linkedin.com", "facebook.com (3rd
 * party)", ".bing.com (3rd party) or .microsoft.com (3rd party)", "ads-[account].adhese.com"
 * (a placeholder label: the host below it is kept). Values that are no host name ("ut") are dropped.
 */
export function hostsOfDomainField(domain: string | null): string[] {
  if (domain == null) return [];
  const hosts = new Set<string>();
  for (const token of domain.toLowerCase().replace(/\(3rd party\)/g, ' ').split(/\s+/)) {
    if (token === '' || token === 'or') continue;
    const labels = token.replace(/^\.+|\.+$/g, '').split('.');
    const lastPlaceholder = labels.findLastIndex((label) => /[[\]{}<>*]/.test(label));
    const host = labels.slice(lastPlaceholder + 1).join('.');
    if (hostName.test(host)) hosts.add(host);
  }
  return [...hosts];
}

/** A cookie domain or host as given by a browser or a URL: lower case, no leading or trailing dot, no port. */
export function normalizeHost(domain: string | null | undefined): string | null {
  if (domain == null) return null;
  const host = domain.trim().toLowerCase().replace(/:\d+$/, '').replace(/^\.+|\.+$/g, '');
  return host === '' ? null : host;
}

function hostMatches(itemHost: string, entryHost: string): boolean {
  return (
    itemHost === entryHost ||
    itemHost.endsWith(`.${entryHost}`) ||
    // A cookie set for a parent domain by one of the entry's subdomains (".twitch.tv" vs "player.twitch.tv").
    (itemHost.includes('.') && entryHost.endsWith(`.${itemHost}`))
  );
}

// Positive when `a` is the better candidate.
function compareCandidates(a: Candidate, b: Candidate): number {
  return (
    Number(a.hostMatches) - Number(b.hostMatches) ||
    Number(a.match === 'exact') - Number(b.match === 'exact') ||
    a.prefixLength - b.prefixLength ||
    Number(a.indexed.hosts.length === 0) - Number(b.indexed.hosts.length === 0) ||
    (a.indexed.entry.id < b.indexed.entry.id ? 1 : a.indexed.entry.id > b.indexed.entry.id ? -1 : 0)
  );
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Indexes the entries once: exact names in one map, prefixes in one map per prefix length (longest
 * first), so classifying a name costs one lookup per distinct prefix length, not a scan of the list.
 */
export function createCookieClassifier(entries: readonly CookieDatabaseEntry[]): CookieClassifier {
  const byName = new Map<string, IndexedEntry[]>();
  const byPrefixLength = new Map<number, Map<string, IndexedEntry[]>>();
  for (const entry of entries) {
    const prefix = prefixOf(entry);
    const indexed: IndexedEntry = {
      entry,
      hosts: hostsOfDomainField(entry.domain),
      prefix,
      prefixNeedsHost: prefix != null && prefix.length < 4 && !separatorAtEnd.test(prefix),
    };
    push(byName, entry.name, indexed);
    if (prefix != null) {
      let bucket = byPrefixLength.get(prefix.length);
      if (!bucket) byPrefixLength.set(prefix.length, (bucket = new Map()));
      push(bucket, prefix, indexed);
    }
  }
  const prefixLengths = [...byPrefixLength.keys()].sort((a, b) => b - a);

  const findBest = (name: string, host: string | null): Candidate | null => {
    let best: Candidate | null = null;
    const consider = (indexed: IndexedEntry, match: 'exact' | 'prefix', prefixLength: number): void => {
      const hostMatchesEntry = host != null && indexed.hosts.some((entryHost) => hostMatches(host, entryHost));
      if (match === 'prefix' && indexed.prefixNeedsHost && !hostMatchesEntry) return;
      const candidate: Candidate = { indexed, match, prefixLength, hostMatches: hostMatchesEntry };
      if (best == null || compareCandidates(candidate, best) > 0) best = candidate;
    };
    for (const indexed of byName.get(name) ?? []) consider(indexed, 'exact', name.length);
    for (const length of prefixLengths) {
      if (length > name.length) continue;
      for (const indexed of byPrefixLength.get(length)!.get(name.slice(0, length)) ?? []) consider(indexed, 'prefix', length);
    }
    return best;
  };

  return {
    entryCount: entries.length,
    classify({ name, domain }) {
      const host = normalizeHost(domain);
      // "__Host-" and "__Secure-" are browser-enforced name prefixes a site adds to any cookie
      // ("__Secure-next-auth.session-token"); the database mostly lists the names without them.
      const best = findBest(name, host) ?? (browserNamePrefix.test(name) ? findBest(name.replace(browserNamePrefix, ''), host) : null);
      if (best == null) return null;
      const { entry } = best.indexed;
      return {
        purpose: purposeOfCategory[entry.category],
        category: entry.category,
        platform: entry.platform,
        controller: entry.controller,
        retention: entry.retention,
        privacyPortal: entry.privacyPortal,
        databaseId: entry.id,
        databaseName: entry.name,
        match: best.match,
      };
    },
  };
}

let defaultClassifier: CookieClassifier | undefined;

/** The classifier over the checked-in database, read and indexed on first use (not at import). */
export function getDefaultCookieClassifier(): CookieClassifier {
  defaultClassifier ??= createCookieClassifier(readCookieDatabase().entries);
  return defaultClassifier;
}

/** Classifies by the checked-in database. */
export function classifyCookie(input: ClassifyInput): CookieClassification | null {
  return getDefaultCookieClassifier().classify(input);
}
