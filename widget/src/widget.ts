// Wires the widget together for one page: reads the snippet, applies Consent Mode defaults, fetches the
// website's config, then either applies the remembered choice, records a GPC decline, or shows the
// banner — and from then on records each choice once through the outbox and applies it to the page.

import { createBanner } from './banner';
import {
  ACCEPTED,
  DECLINED,
  decideOnLoad,
  getVisitorId,
  readStoredChoice,
  writeStoredChoice,
  type Choice,
  type Source,
} from './choice';
import { fetchConfig, type WidgetConfig } from './config';
import { sendConsentMode, type ConsentModeWindow } from './consent-mode';
import { guard, listen } from './guard';
import { createOutbox } from './outbox';
import { buildConsentEvent, buildImpression, CONSENT, IMPRESSION } from './payloads';
import { findWidgetScript, readSnippet } from './snippet';
import { KEY_PREFIX } from './storage';
import { createTracker } from './tracking';
import { activateBlockedScripts } from './unblock';

/** `window.Consentry`, for the owner's own scripts. */
export interface ConsentryApi {
  /** Shows the banner (a "Cookie settings" link in the owner's footer can call this). */
  open(): void;
  /** The choice in force on this page, or null while there is none (or the config is still loading). */
  getConsent(): Choice | null;
}

declare global {
  interface Window {
    Consentry?: ConsentryApi;
    dataLayer?: unknown;
    gtag?: unknown;
  }
}

/** Fired on window whenever the choice in force changes, with `detail.consent` ('accepted'|'declined'). */
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
  sendConsentMode(win as ConsentModeWindow, 'default', false);

  const snippet = readSnippet(findWidgetScript(doc, script), doc.baseURI);
  if (!snippet) {
    console.warn('Consentry: data-embed-code missing');
    return Promise.resolve();
  }
  const { host, embedCode, position, theme } = snippet;
  // The banner waits for this answer: ask for it before anything else, storage included.
  const configReady = fetchConfig(host, embedCode);
  // Handled here too: should start-up fail before the end, a 404 must not reach the page's handlers.
  configReady.catch(() => undefined);

  const outbox = createOutbox(host, KEY_PREFIX + 'queue:' + embedCode);
  // Whatever an earlier page could not deliver is sent at once, without waiting for the config.
  void outbox.flush();
  listen(win, 'online', () => void outbox.flush());

  let visitorId: string | undefined;
  // One id per page even when storage is unusable (then the next page gets a new one).
  const getVisitor = (): string => (visitorId = visitorId || getVisitorId());
  const tracker = createTracker(win, embedCode, outbox, getVisitor);

  /** Set once the banner is mounted with it. */
  let config: WidgetConfig | undefined;
  let consent: Choice | null = null;
  let openRequested = false;

  const apply = (choice: Choice): void => {
    consent = choice;
    const accepted = choice === ACCEPTED;
    sendConsentMode(win as ConsentModeWindow, 'update', accepted);
    if (accepted) {
      activateBlockedScripts(doc);
      tracker.start();
    } else {
      tracker.stop();
    }
    win.dispatchEvent(new CustomEvent(CHANGE_EVENT, { detail: { consent: choice } }));
  };

  const record = (policy: WidgetConfig, choice: Choice, source: Source): void => {
    const body = buildConsentEvent(embedCode, getVisitor(), choice, source, policy.policyVersion);
    writeStoredChoice(embedCode, { choice, policyVersion: policy.policyVersion, decidedAt: body.occurredAt });
    outbox.push(CONSENT, body, true);
    apply(choice);
  };

  // Built while the config is on its way; choices can only be made once it arrived and mounted it.
  // A choice made with no choice in force is the first banner's; any later one is a change of mind.
  const ui = createBanner(
    doc,
    { position, theme },
    (choice) => config && record(config, choice, consent ? 'reopened' : 'banner'),
    () => consent != null,
  );

  const init = (loaded: WidgetConfig): void => {
    const gpc = (win.navigator as Navigator & { globalPrivacyControl?: unknown }).globalPrivacyControl === true;
    const decision = decideOnLoad(readStoredChoice(embedCode), loaded.policyVersion, gpc);
    ui.mount(loaded);
    config = loaded;
    if (decision === 'ask') {
      ui.open(false);
      // An anonymous count can wait: the frame that shows the banner goes first.
      afterNextPaint(win, () => outbox.push(IMPRESSION, buildImpression(embedCode, position, theme)));
    } else {
      ui.close();
      if (decision === 'gpc') record(loaded, DECLINED, 'gpc');
      else apply(decision);
    }
    if (openRequested) ui.open(true);
  };

  win.Consentry = {
    open: guard(() => {
      if (config) ui.open(true);
      else openRequested = true;
    }),
    getConsent: () => consent,
  };

  // A snippet placed in <head> without defer may run before <body> exists. The final catch keeps a
  // failed config (network, 404, 403) or a failure in init away from the page's rejection handlers.
  const domReady = new Promise((resolve) => {
    if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', resolve);
    else resolve(0);
  });
  return Promise.all([configReady, domReady])
    .then(([loaded]) => init(loaded))
    .catch(() => undefined);
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
