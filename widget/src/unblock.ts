// Prior blocking: owners mark scripts that need consent as
// `<script type="text/plain" data-consentry-category="analytics|marketing">`, which the browser does
// not run; after acceptance each becomes a real script. A clone is needed because changing `type`
// on a parsed script element never makes it run.

export const BLOCKED_SELECTOR = 'script[type="text/plain"][data-consentry-category]';

/**
 * Replaces every blocked script with a runnable copy (same attributes except `type`, same src or inline
 * text) and returns how many it activated. The blocked element leaves the document, so calling this
 * again never runs a script twice. One acceptance covers all categories: the banner offers Accept All.
 */
export function activateBlockedScripts(doc: Document): number {
  const blocked = doc.querySelectorAll<HTMLScriptElement>(BLOCKED_SELECTOR);
  blocked.forEach((old) => {
    const script = doc.createElement('script');
    for (const attr of Array.from(old.attributes)) {
      if (attr.name !== 'type') script.setAttribute(attr.name, attr.value);
    }
    // Inserted scripts are async by default; keep the page's order between external ones unless the
    // owner asked for async.
    if (old.src) script.async = old.hasAttribute('async');
    else script.text = old.text;
    if (old.parentNode) old.parentNode.replaceChild(script, old);
  });
  return blocked.length;
}
