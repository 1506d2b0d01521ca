// Google Consent Mode v2: pages that run Google tags get `consent default` (everything denied) as soon
// as widget.js runs, and `consent update` when the visitor decides, so those tags follow the choice.

export type ConsentCommand = 'default' | 'update';

export interface ConsentModeParams {
  ad_storage: string;
  analytics_storage: string;
  ad_user_data: string;
  ad_personalization: string;
}

export interface ConsentModeWindow {
  gtag?: unknown;
  dataLayer?: unknown;
}

export function consentModeParams(granted: boolean): ConsentModeParams {
  const state = granted ? 'granted' : 'denied';
  return { ad_storage: state, analytics_storage: state, ad_user_data: state, ad_personalization: state };
}

/**
 * Sends `consent <command>` when the page uses Google tags: through `gtag` when it exists, else onto
 * `dataLayer` as gtag itself would — gtag.js only reads commands pushed as an `arguments` object, an
 * array is taken for an event. Pages with neither get nothing (false).
 */
export function sendConsentMode(win: ConsentModeWindow, command: ConsentCommand, granted: boolean): boolean {
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
