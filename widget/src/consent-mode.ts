// Google Consent Mode v2: pages that run Google tags get `consent default` (everything optional denied)
// as soon as widget.js runs, and `consent update` when the visitor decides, each signal following its
// purpose: analytics → analytics_storage; marketing → ad_storage, ad_user_data, ad_personalization;
// preferences → functionality_storage, personalization_storage; security_storage is always granted.

import type { Granted } from './purposes';

export type ConsentCommand = 'default' | 'update';

export interface ConsentModeParams {
  ad_storage: string;
  analytics_storage: string;
  ad_user_data: string;
  ad_personalization: string;
  functionality_storage: string;
  personalization_storage: string;
  security_storage: string;
}

export interface ConsentModeWindow {
  gtag?: unknown;
  dataLayer?: unknown;
}

/** The signals for a choice; null (no choice yet) denies every optional one. */
export function consentModeParams(granted: Granted | null): ConsentModeParams {
  const s = (on: boolean | undefined): string => (on ? 'granted' : 'denied');
  const ads = s(granted?.marketing);
  const prefs = s(granted?.preferences);
  return {
    ad_storage: ads,
    analytics_storage: s(granted?.analytics),
    ad_user_data: ads,
    ad_personalization: ads,
    functionality_storage: prefs,
    personalization_storage: prefs,
    security_storage: 'granted',
  };
}

/**
 * Sends `consent <command>` when the page uses Google tags: through `gtag` when it exists, else onto
 * `dataLayer` as gtag itself would — gtag.js only reads commands pushed as an `arguments` object, an
 * array is taken for an event. Pages with neither get nothing (false).
 */
export function sendConsentMode(win: ConsentModeWindow, command: ConsentCommand, granted: Granted | null): boolean {
  const params = consentModeParams(granted);
  if (typeof win.gtag === 'function') {
    (win.gtag as (...args: unknown[]) => void)('consent', command, params);
    return true;
  }
  const dataLayer = win.dataLayer as { push?: unknown } | undefined;
  if (dataLayer && typeof dataLayer.push === 'function') {
    const push = dataLayer.push as (entry: IArguments) => void;
    // A regular function, not an arrow: only it has `arguments`.
    (function pushArguments(..._args: unknown[]) {
      // eslint-disable-next-line prefer-rest-params -- gtag.js requires the arguments object itself
      push.call(dataLayer, arguments);
    })('consent', command, params);
    return true;
  }
  return false;
}
