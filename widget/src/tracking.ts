// Site analytics, after acceptance only: a page view per page (SPA navigations included), the time each
// page was visible, and the engagement events of docs/ingest-protocol.md. Before acceptance, or after a
// withdrawal, nothing here sends anything; it only keeps the visible-time clock, which stays local.

import { guard, listen } from './guard';
import { createUuid } from './ids';
import type { Outbox } from './outbox';
import {
  buildEngagement,
  buildPagehide,
  buildPageview,
  ENGAGEMENT,
  PAGEHIDE,
  PAGEVIEW,
  type EngagementKind,
} from './payloads';

export const TRACK_SELECTOR = '[data-consentry-track="map"],[data-consentry-track="hours"]';
export const TEL_SELECTOR = 'a[href^="tel:"]';
export const CONTACT_FORM_SELECTOR = 'form[data-consentry-contact]';

export interface Tracker {
  /** Consent given: sends this page's view (once per page) and starts reporting. */
  start(): void;
  /** Consent withdrawn: stops reporting at once. */
  stop(): void;
}

export function createTracker(win: Window, embedCode: string, outbox: Outbox, visitorId: () => string): Tracker {
  const doc = win.document;
  const now = (): number => Date.now();
  const isVisible = (): boolean => doc.visibilityState !== 'hidden';
  // A hash change is a jump within the page, not a new page view.
  const currentUrl = (): string => win.location.href.split('#')[0] as string;

  let on = false;
  let listening = false;
  let pageviewId: string | null = null;
  let pageUrl = currentUrl();
  let referrer = doc.referrer;
  let visibleMs = 0;
  let visibleSince: number | null = isVisible() ? now() : null;
  let observer: IntersectionObserver | undefined;

  const elapsed = (): number => visibleMs + (visibleSince == null ? 0 : now() - visibleSince);
  const pagehideBody = (id: string) => buildPagehide(embedCode, visitorId(), id, elapsed());

  const engage = (kind: EngagementKind): void => {
    if (on && pageviewId) {
      outbox.push(ENGAGEMENT, buildEngagement(embedCode, visitorId(), pageviewId, kind));
    }
  };

  const startPageview = (): void => {
    pageviewId = createUuid();
    pageUrl = currentUrl();
    outbox.push(PAGEVIEW, buildPageview(embedCode, visitorId(), pageviewId, referrer));
    // Each page view reports each marked element once (a new SPA page may show the map again).
    if (observer) doc.querySelectorAll(TRACK_SELECTOR).forEach((e) => observer?.observe(e));
  };

  const onNavigate = guard(() => {
    const url = currentUrl();
    if (url === pageUrl) return;
    // The page stays alive on an SPA navigation, so the previous view's time goes through the outbox.
    if (on && pageviewId) outbox.push(PAGEHIDE, pagehideBody(pageviewId));
    referrer = pageUrl;
    pageUrl = url;
    visibleMs = 0;
    visibleSince = isVisible() ? now() : null;
    pageviewId = null;
    if (on) startPageview();
  });

  // The clock runs from load, so the first page's time includes the seconds before the banner click.
  listen(doc, 'visibilitychange', () => {
    if (isVisible()) {
      if (visibleSince == null) visibleSince = now();
      return;
    }
    if (visibleSince != null) visibleMs += now() - visibleSince;
    visibleSince = null;
    if (!on || !pageviewId) return;
    // Hidden may be the last moment of this page (tab closed, app switched away): only sendBeacon
    // reliably outlives it. The running total is sent each time, so a page view's time on page is the
    // largest visibleMs among its pagehide events (a lost beacon then costs only the last stretch).
    const body = pagehideBody(pageviewId);
    if (!outbox.beacon(PAGEHIDE, body)) outbox.push(PAGEHIDE, body);
  });

  // Listening starts with the first acceptance: a page whose visitor declined keeps its history API
  // and its events untouched.
  const startListening = (): void => {
    listening = true;
    // Capture phase: the page's own handlers may stop propagation (AJAX forms often do). guard() covers
    // odd targets (a synthetic event dispatched on document has no closest()).
    listen(doc, 'click', (e) => {
      if ((e.target as Element).closest(TEL_SELECTOR)) engage('tap_to_call');
    }, true);
    listen(doc, 'submit', (e) => {
      const form = e.target as HTMLFormElement;
      if (form.matches(CONTACT_FORM_SELECTOR) || form.querySelector('input[type=email]')) engage('contact_form_submit');
    }, true);
    win.addEventListener('popstate', onNavigate);
    const history = win.history;
    const pushState = history.pushState;
    history.pushState = function (this: History, ...args: Parameters<History['pushState']>) {
      pushState.apply(this, args);
      // After the router's own code, which often sets the new title right after pushState.
      setTimeout(onNavigate, 0);
    };
    if (typeof IntersectionObserver === 'function') {
      const io = new IntersectionObserver(
        guard((entries: IntersectionObserverEntry[]) => {
          entries.forEach((entry) => {
            if (!entry.isIntersecting) return;
            io.unobserve(entry.target);
            engage(entry.target.getAttribute('data-consentry-track') === 'map' ? 'location_map_view' : 'opening_hours_view');
          });
        }),
        { threshold: 0.5 },
      );
      observer = io;
    }
  };

  return {
    start() {
      on = true;
      if (!listening) startListening();
      // Accepting again after a withdrawal on the same page does not count the page twice.
      if (!pageviewId) startPageview();
    },
    stop() {
      on = false;
    },
  };
}
