// Wires the widget together for one page: reads the snippet, applies Consent Mode defaults, fetches the
// website's config, then either applies the remembered choice, records a GPC decline, or shows the
// banner — and from then on records each choice once through the outbox and applies it to the page.

import { mountBanner, type BannerUi } from './banner';
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

  const outbox = createOutbox(host, KEY_PREFIX + 'queue:' + embedCode);
  // Whatever an earlier page could not deliver goes first.
  void outbox.flush();
  listen(win, 'online', () => void outbox.flush());

  let visitorId: string | undefined;
  // One id per page even when storage is unusable (then the next page gets a new one).
  const getVisitor = (): string => (visitorId = visitorId || getVisitorId());
  const tracker = createTracker(win, embedCode, outbox, getVisitor);

  let consent: Choice | null = null;
  let ui: BannerUi | null = null;
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

  const record = (config: WidgetConfig, choice: Choice, source: Source): void => {
    const body = buildConsentEvent(embedCode, getVisitor(), choice, source, config.policyVersion);
    writeStoredChoice(embedCode, { choice, policyVersion: config.policyVersion, decidedAt: body.occurredAt });
    outbox.push(CONSENT, body, true);
    apply(choice);
  };

  const init = (config: WidgetConfig): void => {
    const gpc = (win.navigator as Navigator & { globalPrivacyControl?: unknown }).globalPrivacyControl === true;
    const decision = decideOnLoad(readStoredChoice(embedCode), config.policyVersion, gpc);
    // A choice made with no choice in force is the first banner's; any later one is a change of mind.
    ui = mountBanner(
      doc,
      { ...config, position, theme },
      (choice) => record(config, choice, consent ? 'reopened' : 'banner'),
      () => consent != null,
    );
    if (decision === 'ask') {
      ui.open(false);
      outbox.push(IMPRESSION, buildImpression(embedCode, position, theme));
    } else {
      ui.close();
      if (decision === 'gpc') record(config, DECLINED, 'gpc');
      else apply(decision);
    }
    if (openRequested) ui.open(true);
  };

  win.Consentry = {
    open: guard(() => {
      if (ui) ui.open(true);
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
  return Promise.all([fetchConfig(host, embedCode), domReady])
    .then(([config]) => init(config))
    .catch(() => undefined);
}
