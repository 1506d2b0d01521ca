// The visitor's remembered choice and visitor id. The choice is kept per embed code in first-party
// localStorage and, so every subdomain of the website's domain shares it, in a first-party cookie on
// that domain. It counts only while the policy version and the purposes asked are the ones it was
// given for, and for the website's consent lifetime.

import { createUuid, UUID_PATTERN } from './ids';
import { grant, purposeList, type Granted, type Method, type Purpose } from './purposes';
import { KEY_PREFIX, readJson, writeJson } from './storage';

export type Source = 'banner' | 'gpc' | 'reopened' | 'placeholder' | 'api' | 'opt_out_link' | 'jurisdiction';
/** How the visitor's region treats consent (the website's rule for it). */
export type Rule = 'opt_in' | 'opt_out' | 'notice_only';

export interface StoredChoice {
  /** The purposes the banner asked, and those granted. */
  offered: Purpose[];
  purposes: Granted;
  method: Method;
  policyVersion: string;
  /** ISO time of the decision, the consent event's occurredAt. */
  decidedAt: string;
  /**
   * The consent event's id: what an identification names as its proof. Choices stored before it was
   * kept (and widget 1's) have none, so they never allow identification.
   */
  eventId?: string;
}

/** What the config says a choice must match to stand. */
export interface ChoiceTerms {
  policyVersion: string;
  purposes: Purpose[];
  consentLifetimeMonths: number;
  /** The website's domain, for the shared cookie (`example.com`). */
  domain: string;
}

export const choiceKey = (embedCode: string): string => KEY_PREFIX + 'choice:' + embedCode;
export const cookieName = (embedCode: string): string => 'consentry_' + embedCode;
export const VISITOR_KEY = KEY_PREFIX + 'visitor';

/** A stored choice, from its current shape or the all-or-nothing one of widget 1; null when unusable. */
export function parseStoredChoice(v: unknown): StoredChoice | null {
  const c = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  if (typeof c.policyVersion !== 'string' || typeof c.decidedAt !== 'string') return null;
  if (c.choice === 'accepted' || c.choice === 'declined') {
    // Widget 1 asked for preferences, analytics and marketing together.
    const offered: Purpose[] = ['preferences', 'analytics', 'marketing'];
    const accepted = c.choice === 'accepted';
    return { offered, purposes: grant(offered, accepted), method: accepted ? 'accept_all' : 'reject_all', policyVersion: c.policyVersion, decidedAt: c.decidedAt };
  }
  const purposes = (c.purposes && typeof c.purposes === 'object' ? c.purposes : null) as Record<string, unknown> | null;
  if (!purposes || !Array.isArray(c.offered)) return null;
  const offered = purposeList(c.offered);
  return {
    offered,
    purposes: grant(offered, (p) => purposes[p] === true),
    method: (['accept_all', 'reject_all', 'custom', 'gpc', 'jurisdiction_default'].indexOf(c.method as string) >= 0 ? c.method : 'custom') as Method,
    policyVersion: c.policyVersion,
    decidedAt: c.decidedAt,
    eventId: UUID_PATTERN.test(c.eventId as string) ? (c.eventId as string) : undefined,
  };
}

/** The newer of the cookie's (shared by subdomains) and localStorage's choice. */
export function readStoredChoice(embedCode: string): StoredChoice | null {
  const name = cookieName(embedCode) + '=';
  let fromCookie: StoredChoice | null = null;
  try {
    const part = document.cookie.split('; ').find((p) => p.indexOf(name) === 0);
    if (part) fromCookie = parseStoredChoice(JSON.parse(decodeURIComponent(part.slice(name.length))));
  } catch {
    // Cookies can be blocked (sandboxed frames) or spoilt; localStorage still works.
  }
  const local = parseStoredChoice(readJson(choiceKey(embedCode)));
  return !fromCookie || (local && local.decidedAt >= fromCookie.decidedAt) ? local : fromCookie;
}

const MONTH_MS = 30.44 * 86_400_000;

/**
 * Stores the choice in localStorage and in a cookie for the website's domain (when this page is on it
 * or a subdomain), lasting the consent lifetime. Only what the banner needs is in the cookie; it is
 * never read by the server (widget requests carry no credentials).
 */
export function writeStoredChoice(embedCode: string, stored: StoredChoice, terms: ChoiceTerms): void {
  writeJson(choiceKey(embedCode), stored);
  // The domain itself or a subdomain of it.
  const onDomain = ('.' + location.hostname).endsWith('.' + terms.domain);
  try {
    document.cookie =
      cookieName(embedCode) + '=' + encodeURIComponent(JSON.stringify(stored)) +
      ';path=/;max-age=' + Math.round((terms.consentLifetimeMonths * MONTH_MS) / 1000) +
      ';samesite=lax' + (onDomain && terms.domain.indexOf('.') > 0 ? ';domain=' + terms.domain : '') +
      (location.protocol === 'https:' ? ';secure' : '');
  } catch {
    // Cookies blocked: the choice still holds on this (sub)domain through localStorage.
  }
}

/**
 * What to do once the config is known: apply a remembered choice, decline for GPC, ask, or (where the
 * region's rule grants by default) record that default.
 */
export type LoadDecision = StoredChoice | 'gpc' | 'ask' | 'default';

/**
 * A remembered choice stands while its policy version and purposes are the website's and it is
 * younger than the consent lifetime. Without one, Global Privacy Control is a valid "no" (CCPA treats
 * it as an opt-out request), recorded instead of asking; otherwise an opt-in region asks and an
 * opt-out or notice-only region records its default.
 */
export function decideOnLoad(
  stored: StoredChoice | null,
  terms: ChoiceTerms,
  gpc: boolean,
  rule: Rule = 'opt_in',
  now = Date.now(),
): LoadDecision {
  if (
    stored &&
    stored.policyVersion === terms.policyVersion &&
    stored.offered.join() === terms.purposes.join() &&
    now - Date.parse(stored.decidedAt) < terms.consentLifetimeMonths * MONTH_MS
  ) {
    return stored;
  }
  return gpc ? 'gpc' : rule === 'opt_in' ? 'ask' : 'default';
}

/** Every purpose with its state, `necessary` always on: what the page's scripts are told. */
export function publicChoice(stored: StoredChoice): Record<'necessary' | Purpose, boolean> {
  // grant() makes every Granted: each purpose, in order.
  return { necessary: true, ...stored.purposes };
}

/** The visitor id, created and kept on first use (only a consent decision needs one). */
export function getVisitorId(): string {
  const stored = readJson(VISITOR_KEY);
  if (typeof stored === 'string' && UUID_PATTERN.test(stored)) return stored;
  const id = createUuid();
  writeJson(VISITOR_KEY, id);
  return id;
}
