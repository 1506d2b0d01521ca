// The request bodies of docs/ingest-protocol.md, one builder per endpoint, with the protocol's length
// limits applied here so the server never has to refuse a visitor's consent for an over-long URL.

import type { Source } from './choice';
import { createUuid } from './ids';
import type { Granted, Method, Purpose } from './purposes';
import type { Position, Theme } from './snippet';

/** Path segments under `{host}/api/collect/`. */
export const CONSENT = 'consent';
export const IMPRESSION = 'impression';
export const PAGEVIEW = 'pageview';
export const PAGEHIDE = 'pagehide';
export const ENGAGEMENT = 'engagement';
/** docs/identification.md: sent by identify.js only, never by widget.js itself. */
export const IDENTIFY = 'identify';
export type CollectPath = typeof CONSENT | typeof IMPRESSION | typeof PAGEVIEW | typeof PAGEHIDE | typeof ENGAGEMENT | typeof IDENTIFY;

export const MAX_URL = 2048;
/**
 * Only the referrer's site is reported, and the whole page view must stay under ingest's 4 KB body
 * limit: URL 2048 + referrer 512 + title 256 characters (up to 768 bytes) + ids is about 3.6 KB.
 */
export const MAX_REFERRER = 512;
export const MAX_TITLE = 256;
export const MAX_LANGUAGE = 16;
export const MAX_VISIBLE_MS = 86_400_000;
/** A name or company (the identification events' limit). */
export const MAX_PERSON_TEXT = 200;

export type EngagementKind = 'tap_to_call' | 'contact_form_submit' | 'location_map_view' | 'opening_hours_view';

export interface ConsentEvent {
  embedCode: string;
  eventId: string;
  visitorId: string;
  offered: Purpose[];
  purposes: Granted;
  method: Method;
  source: Source;
  policyVersion: string;
  pageUrl: string;
  language: string;
  /** The language the banner's texts were in, and the server's hash of those texts. */
  shownLanguage: string;
  textsHash: string | null;
  occurredAt: string;
}

/** What the choice was made on: the banner's terms and texts. */
export interface Shown {
  policyVersion: string;
  language: string;
  textsHash: string | null;
}
export interface ImpressionEvent {
  embedCode: string;
  eventId: string;
  position: Position;
  theme: Theme;
}
export interface PageviewEvent {
  embedCode: string;
  eventId: string;
  visitorId: string;
  pageviewId: string;
  url: string;
  referrer: string;
  title: string;
}
export interface PagehideEvent {
  embedCode: string;
  eventId: string;
  visitorId: string;
  pageviewId: string;
  visibleMs: number;
}
export interface EngagementEvent {
  embedCode: string;
  eventId: string;
  visitorId: string;
  pageviewId: string;
  kind: EngagementKind;
}
/** Who the visitor is, and under which allowing consent. */
export interface Identity {
  embedCode: string;
  visitorId: string;
  /** The event id of the choice that allowed identification. */
  consentEventId: string;
}
/** How the visitor identified themselves: a form they sent, or the site's `Consentry.identify` call. */
export type IdentifySource = 'form' | 'call';
export interface IdentifyEvent extends Identity {
  eventId: string;
  source: IdentifySource;
  /** Normalised (trimmed, lower-case, checked). */
  email: string;
  name: string | null;
  company: string | null;
  pageUrl: string;
  occurredAt: string;
}
export type CollectBody = ConsentEvent | ImpressionEvent | PageviewEvent | PagehideEvent | EngagementEvent | IdentifyEvent;

const clip = (value: string, max: number): string => value.slice(0, max);

export function buildConsentEvent(
  embedCode: string,
  visitorId: string,
  choice: { offered: Purpose[]; purposes: Granted; method: Method },
  source: Source,
  shown: Shown,
): ConsentEvent {
  return {
    embedCode,
    eventId: createUuid(),
    visitorId,
    offered: choice.offered,
    purposes: choice.purposes,
    method: choice.method,
    source,
    policyVersion: shown.policyVersion,
    pageUrl: clip(location.href, MAX_URL),
    language: clip(navigator.language || '', MAX_LANGUAGE),
    shownLanguage: shown.language,
    textsHash: shown.textsHash,
    occurredAt: new Date().toISOString(),
  };
}

export function buildImpression(embedCode: string, position: Position, theme: Theme): ImpressionEvent {
  return { embedCode, eventId: createUuid(), position, theme };
}

/** `referrer` is document.referrer for the first page, the previous URL after an SPA navigation. */
export function buildPageview(embedCode: string, visitorId: string, pageviewId: string, referrer: string): PageviewEvent {
  return {
    embedCode,
    eventId: createUuid(),
    visitorId,
    pageviewId,
    url: clip(location.href, MAX_URL),
    referrer: clip(referrer, MAX_REFERRER),
    title: clip(document.title, MAX_TITLE),
  };
}

export function buildPagehide(embedCode: string, visitorId: string, pageviewId: string, visibleMs: number): PagehideEvent {
  // A clock change can make the difference negative; a tab left open for days exceeds the limit.
  const ms = Math.min(MAX_VISIBLE_MS, Math.max(0, Math.round(visibleMs)));
  return { embedCode, eventId: createUuid(), visitorId, pageviewId, visibleMs: ms };
}

export function buildEngagement(embedCode: string, visitorId: string, pageviewId: string, kind: EngagementKind): EngagementEvent {
  return { embedCode, eventId: createUuid(), visitorId, pageviewId, kind };
}

/** `email` must be normalised already; name and company are trimmed and clipped, null when empty. */
export function buildIdentify(
  who: Identity,
  source: IdentifySource,
  email: string,
  name: string | null,
  company: string | null,
): IdentifyEvent {
  const text = (v: string | null): string | null => (v && v.trim() ? clip(v.trim(), MAX_PERSON_TEXT) : null);
  return {
    embedCode: who.embedCode,
    visitorId: who.visitorId,
    consentEventId: who.consentEventId,
    eventId: createUuid(),
    source,
    email,
    name: text(name),
    company: text(company),
    pageUrl: clip(location.href, MAX_URL),
    occurredAt: new Date().toISOString(),
  };
}
