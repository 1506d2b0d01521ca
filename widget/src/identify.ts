// identify.js, the form capture of lead identification (docs/identification.md), built apart from
// widget.js and added to the page by it only once the visitor allowed identification by their own act.
// It reads who a visitor said they are when they send a form with an email field, and serves
// `Consentry.identify` calls, sending each through widget.js's outbox — after the consent that allowed
// it, which the outbox always sends first. The choice is asked again before every form is read, so a
// withdrawal on the same page stops the capture at once. Password, hidden and disabled fields are
// never read, nor anything in a form or field marked `data-consentry-identify="off"`.

import { listen } from './guard';
import { buildIdentify, IDENTIFY, type CollectBody, type CollectPath, type IdentifySource } from './payloads';

/** Owners mark forms to read (in `marked` mode) or, with the value `off`, forms and fields never to read. */
export const IDENTIFY_ATTR = 'data-consentry-identify';
const OFF = '[' + IDENTIFY_ATTR + '="off"]';

/** A queued `Consentry.identify(email, details)` call: its promise's resolve, then the arguments. */
export type IdentifyCall = [resolve: (sent: boolean) => void, email: unknown, details: unknown];

/**
 * What widget.js hands identify.js, as the `consentry` property of the script element it adds (a
 * tuple, as the fewest bytes in widget.js).
 */
export type IdentifyBridge = [
  /** The event id of the visitor's choice in force while it allows identification; else undefined. */
  allowingEventId: () => string | undefined,
  /** The config's `identification`: whose `forms` say which count, `all` but those marked off, or
   * only those marked (any other value). */
  identification: { forms: unknown },
  /** The outbox's push: queued, sent with keepalive, retried, always after the consents queued. */
  send: (path: CollectPath, body: CollectBody) => void,
  /** `Consentry.identify` calls made before identify.js ran; it then takes over their `push`. */
  calls: IdentifyCall[],
  embedCode: string,
  visitorId: () => string,
];

/**
 * The events package's email rule (events/src/identification.ts: validator's isEmail, strict),
 * restated: the widget bundles nothing from the server side, and identify.unit.test.ts holds the two
 * to agreement. A dot-atom local part of at most 64 bytes; hostname labels (Unicode allowed, no `_`,
 * no full-width forms, no hyphen at either end) and a letter TLD; no quote, whitespace, control or
 * format character anywhere; at most 254 characters.
 */
const LOCAL_ATOM = /^[\w!#$%&'*+/=?^`{|}~\u00a1-\ud7ff\uf900-\ufdcf\ufdf0-\uffef-]+$/;
const LABEL = /^(?!-)(?!.*-$)[a-z\d\u00a1-\uff00\uff5f-\uffff-]{1,63}$/;
const TLD = /^([a-z\u00a1-\u00a8\u00aa-\ud7ff\uf900-\ufdcf\ufdf0-\uffef]{2,}|xn[a-z\d-]{2,})$/;
const bytes = (text: string): number => encodeURI(text).split(/%..|./).length - 1;

/** Trimmed and lower-cased; null when what is left is not an email address (as events' normaliseEmail). */
export function normaliseEmail(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const email = raw.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const labels = domain.split('.');
  return at > 0 &&
    email.length <= 254 &&
    !/[\p{C}\p{Z}"]/u.test(email) &&
    bytes(local) <= 64 &&
    bytes(domain) <= 254 &&
    local.split('.').every((atom) => LOCAL_ATOM.test(atom)) &&
    labels.length > 1 &&
    TLD.test(labels[labels.length - 1]!) &&
    labels.every((label) => LABEL.test(label))
    ? email
    : null;
}

export type FieldKind = 'email' | 'name' | 'company';

/** Names and autocomplete tokens of fields that hold secrets. */
const SECRET = /pass|pwd|secret|one-time-code|cc-|card/;

/**
 * What a form control holds, from its type, its name (or id) and its autocomplete tokens — decided
 * without reading its value. null for everything never read: anything but a text or email input,
 * hidden and disabled inputs, fields marked off, and secrets whatever their type (a "show password"
 * button makes a password field text): passwords, one-time codes, card numbers.
 */
export function classifyField(field: Element): FieldKind | null {
  if (field.tagName !== 'INPUT' || field.closest(OFF)) return null;
  const input = field as HTMLInputElement;
  const name = (input.getAttribute('name') || input.id).toLowerCase();
  const autocomplete = (input.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/);
  const all = name + ' ' + input.id.toLowerCase() + ' ' + autocomplete.join(' ');
  if (!/^(text|email|search)$/.test(input.type) || input.disabled || input.hidden || SECRET.test(all)) return null;
  if (input.type === 'email' || /e-?mail/.test(all)) return 'email';
  if (autocomplete.indexOf('organization') >= 0 || /company|organi[sz]ation/.test(name)) return 'company';
  if (autocomplete.some((t) => /^(name|given-name|family-name)$/.test(t)) || (/name/.test(name) && !/user|org|nick/.test(name))) {
    return 'name';
  }
  return null;
}

/** Who the visitor said they are. */
export interface FormIdentity {
  email: string;
  name: string | null;
  company: string | null;
}

/**
 * What `form` says about its sender, or null when it counts for nothing: marked off (or, unless
 * `forms` is `all`, not marked), or without a valid email address. The first valid address wins; name
 * parts (given and family name) are joined in the form's order; the first company counts.
 */
export function readForm(form: HTMLFormElement, forms: unknown): FormIdentity | null {
  if (form.closest(OFF) || (forms !== 'all' && !form.hasAttribute(IDENTIFY_ATTR))) return null;
  let email: string | null = null;
  let company: string | null = null;
  const names: string[] = [];
  for (const field of Array.from(form.elements)) {
    const kind = classifyField(field);
    const value = kind ? (field as HTMLInputElement).value.trim() : '';
    if (!value) continue;
    if (kind === 'email') email = email || normaliseEmail(value);
    else if (kind === 'name') names.push(value);
    else company = company || value;
  }
  return email ? { email, name: names.join(' ') || null, company } : null;
}

/**
 * Starts the capture on `win`: a listener for every form's submit, and `Consentry.identify`. Each
 * address is sent once per page. The listener is on the window in the capture phase, so forms added
 * later count too, the page's own handlers cannot hide a submit, and it runs before widget.js's
 * engagement count of the same submit (on the document): the outbox sends one request at a time, and
 * when the form leaves the page the identification must be the one already on its way. Nothing is
 * prevented or delayed; whatever cannot go before the page unloads stays queued for the next one.
 */
export function startIdentify(win: Window, bridge: IdentifyBridge): void {
  const [allowingEventId, { forms }, send, calls, embedCode, visitorId] = bridge;
  const sent: string[] = [];
  const identify = (source: IdentifySource, email: string | null, name: string | null, company: string | null): boolean => {
    const consentEventId = allowingEventId();
    if (!consentEventId || !email) return false;
    if (sent.indexOf(email) < 0) {
      sent.push(email);
      send(IDENTIFY, buildIdentify({ embedCode, visitorId: visitorId(), consentEventId }, source, email, name, company));
    }
    return true;
  };

  listen(
    win,
    'submit',
    (e) => {
      const form = e.target as HTMLFormElement;
      // The choice is asked before any field is read.
      if (!allowingEventId() || form.tagName !== 'FORM') return;
      const found = readForm(form, forms);
      if (found) identify('form', found.email, found.name, found.company);
    },
    true,
  );

  const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  const call = ([resolve, email, details]: IdentifyCall): void => {
    let ok = false;
    try {
      const d = (details && typeof details === 'object' ? details : {}) as Record<string, unknown>;
      ok = identify('call', normaliseEmail(email), text(d.name), text(d.company));
    } catch {
      // Details whose getters throw: answered false like any call that sends nothing.
    }
    resolve(ok);
  };
  calls.splice(0).forEach(call);
  // From now on widget.js's stub hands each call straight here (the dataLayer.push idiom).
  calls.push = (...added: IdentifyCall[]): number => {
    added.forEach(call);
    return 0;
  };
}
