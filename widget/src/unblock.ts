// Prior blocking per purpose. Owners mark what needs consent:
// - scripts as `<script type="text/plain" data-consentry-category="analytics">`, which the browser does
//   not run; once the purpose is granted each becomes a real script (a clone: changing `type` on a
//   parsed script never makes it run);
// - iframes and other embeds as `<iframe data-consentry-src="…" data-consentry-category="marketing">`
//   (no `src`), which get the address once the purpose is granted; until then the widget puts a
//   placeholder before each that says why it is empty and offers to allow that purpose.
// `necessary` is always granted. An unknown category waits for a grant that never comes.

import type { Granted, Purpose } from './purposes';

export const BLOCKED_SELECTOR = 'script[type="text/plain"][data-consentry-category]';
export const EMBED_SELECTOR = '[data-consentry-src][data-consentry-category]';
const CATEGORY = 'data-consentry-category';

const allowed = (el: Element, granted: Granted | null): boolean => {
  const category = el.getAttribute(CATEGORY);
  return category === 'necessary' || (!!granted && granted[category as Purpose] === true);
};

/**
 * Runs every blocked script whose purpose is granted (same attributes except `type`, same src or
 * inline text) and returns how many. The blocked element leaves the document, so calling this again
 * never runs a script twice.
 */
export function activateBlockedScripts(doc: Document, granted: Granted | null): number {
  let count = 0;
  doc.querySelectorAll<HTMLScriptElement>(BLOCKED_SELECTOR).forEach((old) => {
    if (!allowed(old, granted)) return;
    const script = doc.createElement('script');
    for (const attr of Array.from(old.attributes)) {
      if (attr.name !== 'type') script.setAttribute(attr.name, attr.value);
    }
    // Inserted scripts are async by default; keep the page's order between external ones unless the
    // owner asked for async.
    if (old.src) script.async = old.hasAttribute('async');
    else script.text = old.text;
    if (old.parentNode) old.parentNode.replaceChild(script, old);
    count++;
  });
  return count;
}

/**
 * Gives every blocked embed whose purpose is granted its address (and removes its placeholder); puts
 * a placeholder, made by `placeholder`, before each one still blocked that has none.
 */
export function applyToEmbeds(
  doc: Document,
  granted: Granted | null,
  placeholder: (purpose: Purpose) => HTMLElement,
): void {
  doc.querySelectorAll<HTMLElement>(EMBED_SELECTOR).forEach((el) => {
    const before = el.previousElementSibling;
    const hasPlaceholder = before && before.tagName === 'CONSENTRY-PLACEHOLDER';
    if (allowed(el, granted)) {
      el.setAttribute('src', el.getAttribute('data-consentry-src') as string);
      el.removeAttribute('data-consentry-src');
      if (hasPlaceholder) before.remove();
    } else if (!hasPlaceholder && el.parentNode) {
      el.parentNode.insertBefore(placeholder(el.getAttribute(CATEGORY) as Purpose), el);
    }
  });
}
