// Wires the widget together for one page: reads the snippet, applies Consent Mode defaults, fetches the
// website's config (in the visitor's language) and the rule for the visitor's region, then applies the
// remembered choice, records a GPC decline or the region's default, or shows the banner — and from then
// on records each choice once through the outbox and applies it to the page, purpose by purpose. Once
// the visitor allowed identification by their own act, it adds the form capture, identify.js.

import { createBanner } from './banner';
import {
  decideOnLoad,
  getVisitorId,
  publicChoice,
  readStoredChoice,
  writeStoredChoice,
  type Rule,
  type Source,
  type StoredChoice,
} from './choice';
import { fetchConfig, fetchRule, pickLanguage, type IdentificationConfig, type WidgetConfig } from './config';
import { sendConsentMode, type ConsentModeWindow } from './consent-mode';
import { guard, listen } from './guard';
import type { IdentifyBridge, IdentifyCall } from './identify';
import { createOutbox } from './outbox';
import { buildConsentEvent, buildImpression, CONSENT, IMPRESSION } from './payloads';
import { allowsIdentification, anyGranted, grant, type Granted, type Method, type Purpose } from './purposes';
import { findWidgetScript, readSnippet } from './snippet';
import { KEY_PREFIX } from './storage';
import { createTracker } from './tracking';
import { activateBlockedScripts, applyToEmbeds } from './unblock';

/** Every purpose with its state; `necessary` is always true. */
export type PublicChoice = Record<'necessary' | Purpose, boolean>;

/** `window.Consentry`, for the owner's own scripts (documented in the README). */
export interface ConsentryApi {
  /** Opens the preference centre (a "Cookie settings" link in the owner's footer can call this). */
  open(): void;
  /** 'accepted' when any optional purpose is granted, 'declined' when none, null while undecided. */
  getConsent(): 'accepted' | 'declined' | null;
  /** Each purpose granted or not; null while undecided (or the config is still loading). */
  getChoice(): PublicChoice | null;
  /** Whether `purpose` may be used now (`necessary` always). */
  allows(purpose: string): boolean;
  /** Calls `listener` with the choice after every change; returns a function that unsubscribes. */
  onChange(listener: (choice: PublicChoice) => void): () => void;
  /**
   * For sites with signed-in users: records who the visitor is (source `call`). Resolves true once
   * queued for sending (or sent before on this page), false — sending nothing — unless the visitor
   * allowed identification and the email is valid. Waits for start-up and for identify.js.
   */
  identify(email: string, details?: { name?: string; company?: string }): Promise<boolean>;
}

declare global {
  interface Window {
    Consentry?: ConsentryApi;
    dataLayer?: unknown;
    gtag?: unknown;
  }
}

/**
 * Fired on window whenever the choice in force changes; `detail.consent` ('accepted'|'declined', as
 * widget 1 sent it) and `detail.purposes` (each purpose granted or not).
 */
export const CHANGE_EVENT = 'consentry:change';

/**
 * Starts the widget for `script` (normally document.currentScript). The returned promise settles when
 * start-up is over (banner shown or choice applied, or given up), so tests can wait for it; it never
 * rejects.
 */
export function startWidget(win: Window, script: Element | null): Promise<void> {
  const doc = win.document;
  // Included twice: the first copy owns the page.
  if (win.Consentry) return Promise.resolve();
  // Before anything else, so Google tags never run on an undecided visitor as if consent was given.
  sendConsentMode(win as ConsentModeWindow, 'default', null);

  const snippet = readSnippet(findWidgetScript(doc, script), doc.baseURI);
  if (!snippet) {
    console.warn('Consentry: data-embed-code missing');
    return Promise.resolve();
  }
  const { host, embedCode, position, theme } = snippet;
  // The banner waits for these answers: ask for them before anything else, storage included.
  const configReady = fetchConfig(host, embedCode, pickLanguage(win.navigator.languages || [win.navigator.language]));
  // Handled here too: should start-up fail before the end, a 404 must not reach the page's handlers.
  configReady.catch(() => undefined);
  // Asked beside the config, not after it: waiting for one answer before asking the other would put
  // a second round trip before the banner. A website that asks everyone ignores the answer.
  const ruleReady = fetchRule(host, embedCode);

  const outbox = createOutbox(host, KEY_PREFIX + 'queue:' + embedCode);
  // Whatever an earlier page could not deliver is sent at once, without waiting for the config.
  void outbox.flush();
  listen(win, 'online', outbox.flush);

  let visitorId: string | undefined;
  // One id per page even when storage is unusable (then the next page gets a new one).
  const getVisitor = (): string => (visitorId = visitorId || getVisitorId());
  const tracker = createTracker(win, embedCode, outbox, getVisitor);

  /** Set once the banner is mounted with it. */
  let config: WidgetConfig | undefined;
  let current: StoredChoice | null = null;
  let openRequested = false;
  const listeners: ((choice: PublicChoice) => void)[] = [];
  /** Consentry.identify calls waiting for identify.js, which takes them over; made when it is added. */
  let identifyCalls: IdentifyCall[] | undefined;

  /** The event id of the choice in force while it allows identification and the website offers it. */
  const allowingEventId = (): string | undefined =>
    config?.identification && current && allowsIdentification(current) ? current.eventId : undefined;

  const apply = (choice: StoredChoice): void => {
    current = choice;
    const granted = choice.purposes;
    sendConsentMode(win as ConsentModeWindow, 'update', granted);
    activateBlockedScripts(doc, granted);
    applyToEmbeds(doc, granted, ui.placeholder);
    // Page views are analytics: counted only with that purpose.
    if (granted.analytics) tracker.start();
    else tracker.stop();
    const purposes = publicChoice(choice);
    win.dispatchEvent(
      new CustomEvent(CHANGE_EVENT, { detail: { consent: anyGranted(granted) ? 'accepted' : 'declined', purposes } }),
    );
    for (const listener of listeners) guard(listener)(purposes);
    // Form capture is a script of its own, fetched only once the visitor allowed identification.
    if (!identifyCalls && allowingEventId()) {
      const identification = (config as WidgetConfig).identification as IdentificationConfig;
      const script = doc.createElement('script') as HTMLScriptElement & { consentry: IdentifyBridge };
      script.src = host + identification.script;
      script.consentry = [allowingEventId, identification, outbox.push, (identifyCalls = []), embedCode, getVisitor];
      // Blocked or offline: identification is off for this page, and the calls waiting for it get false.
      script.onerror = () => {
        (config as WidgetConfig).identification = null;
        (identifyCalls as IdentifyCall[]).map(([resolve]) => resolve(false));
      };
      doc.head.append(script);
    }
  };

  const record = (purposes: Granted, method: Method, source: Source): void => {
    // Choices are made on the banner, which is mounted with the config.
    const terms = config as WidgetConfig;
    const decided = { offered: terms.purposes, purposes, method };
    // The config is what was shown: its policy version, language and texts hash.
    const body = buildConsentEvent(embedCode, getVisitor(), decided, source, terms);
    const stored: StoredChoice = { ...decided, policyVersion: terms.policyVersion, decidedAt: body.occurredAt, eventId: body.eventId };
    writeStoredChoice(embedCode, stored, terms);
    outbox.push(CONSENT, body, true);
    apply(stored);
  };

  // Built while the config is on its way; choices can only be made once it arrived and mounted it.
  // A choice made with no choice in force is the first banner's; any later one is a change of mind.
  const ui = createBanner(
    doc,
    { position, theme },
    {
      choose: (purposes, method, fromPlaceholder) =>
        record(purposes, method, fromPlaceholder ? 'placeholder' : current ? 'reopened' : 'banner'),
      optOut: () => {
        record(grant((config as WidgetConfig).purposes, false), 'reject_all', 'opt_out_link');
        ui.showOptOut(true);
      },
      current: () => (current ? current.purposes : null),
    },
  );
  const init = (loaded: WidgetConfig, rule: Rule): void => {
    const gpc = (win.navigator as Navigator & { globalPrivacyControl?: unknown }).globalPrivacyControl === true;
    const decision = decideOnLoad(readStoredChoice(embedCode), loaded, gpc, rule);
    ui.mount(loaded);
    config = loaded;
    if (decision === 'ask') {
      // Blocked embeds say why they are empty while the visitor decides.
      applyToEmbeds(doc, null, ui.placeholder);
      ui.open(false);
      // An anonymous count can wait: the frame that shows the banner goes first.
      afterNextPaint(win, () => outbox.push(IMPRESSION, buildImpression(embedCode, position, theme)));
    } else {
      ui.close();
      if (decision === 'gpc') record(grant(loaded.purposes, false), 'gpc', 'gpc');
      else if (decision === 'default') record(grant(loaded.purposes, true), 'jurisdiction_default', 'jurisdiction');
      else apply(decision);
      // A notice-only region is told what is used, once, when the default is recorded.
      if (decision === 'default' && rule === 'notice_only') ui.open(false, true);
    }
    if (rule === 'opt_out') ui.showOptOut(!!current && !anyGranted(current.purposes));
    if (openRequested) ui.openCentre();
  };

  const choice = (): PublicChoice | null => (current ? publicChoice(current) : null);
  win.Consentry = {
    open: guard(() => {
      if (config) ui.openCentre();
      else openRequested = true;
    }),
    getConsent: () => (current ? (anyGranted(current.purposes) ? 'accepted' : 'declined') : null),
    getChoice: choice,
    allows: (purpose) => purpose === 'necessary' || !!choice()?.[purpose as Purpose],
    onChange(listener) {
      listeners.push(listener);
      return () => {
        const i = listeners.indexOf(listener);
        if (i >= 0) listeners.splice(i, 1);
      };
    },
    // A stub that queues for identify.js, which does the work. A call made while the remembered choice
    // is still loading waits for it; once allowed, identify.js has been added, and with it the queue.
    identify: (email, details) =>
      started.then(() =>
        allowingEventId() ? new Promise<boolean>((resolve) => (identifyCalls as IdentifyCall[]).push([resolve, email, details])) : false,
      ),
  };

  // A snippet placed in <head> without defer may run before <body> exists. The final catch keeps a
  // failed config (network, 404, 403) or a failure in init away from the page's rejection handlers.
  const domReady = new Promise((resolve) => {
    if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', resolve);
    else resolve(0);
  });
  const started = Promise.all([configReady, ruleReady, domReady])
    .then(([loaded, rule]) => init(loaded, loaded.regional ? rule : 'opt_in'))
    .catch(() => undefined);
  return started;
}

/** Runs `fn` once the browser has painted the next frame, or after a second if no frame comes (a
 * hidden tab paints none). */
function afterNextPaint(win: Window, fn: () => void): void {
  let done = false;
  const run = guard(() => {
    if (!done) {
      done = true;
      fn();
    }
  });
  // A frame's callbacks run before it is painted; the task after them runs after.
  win.requestAnimationFrame(() => win.setTimeout(run, 0));
  win.setTimeout(run, 1000);
}
