// Reads the embed snippet: `<script src="{host}/widget.js" data-embed-code="…" data-position="…"
// data-theme="…">`. Everything the widget is told comes from these attributes; the rest comes from
// the per-website config fetched from {host}.

export type Position = 'bottom' | 'top';
export type Theme = 'light' | 'dark';

export interface Snippet {
  /** Where widget.js was served from; every request goes back there. No trailing slash. */
  host: string;
  embedCode: string;
  position: Position;
  theme: Theme;
}

const EMBED_CODE = 'data-embed-code';
/** The setup guide's spelling of the same attribute (product spec, section 7). */
const EMBED_CODE_ALIAS = 'data-consentry-id';

/**
 * The widget's own script element. `document.currentScript` (passed in, as it is only set while
 * widget.js first runs, defer included) is used when it carries an embed code; when it is missing or
 * has none (some tag managers re-create the element), the first script tag that has one.
 */
export function findWidgetScript(doc: Document, current: Element | null): Element | null {
  if (current && (current.hasAttribute(EMBED_CODE) || current.hasAttribute(EMBED_CODE_ALIAS))) return current;
  return doc.querySelector(`script[${EMBED_CODE}],script[${EMBED_CODE_ALIAS}]`);
}

/**
 * The snippet's settings, or null when the tag cannot work (no src, no embed code). Unknown
 * position/theme values fall back to the documented defaults, bottom and light.
 * `{host}` is the folder widget.js was served from: the origin for `{host}/widget.js`, and still right
 * when Consentry is published under a path prefix.
 */
export function readSnippet(script: Element | null, baseUrl: string): Snippet | null {
  if (!script) return null;
  const src = script.getAttribute('src');
  const embedCode = (script.getAttribute(EMBED_CODE) || script.getAttribute(EMBED_CODE_ALIAS) || '').trim();
  if (!src || !embedCode) return null;
  let url: URL;
  try {
    url = new URL(src, baseUrl);
  } catch {
    return null;
  }
  return {
    host: url.origin + url.pathname.replace(/\/[^/]*$/, ''),
    embedCode,
    position: script.getAttribute('data-position') === 'top' ? 'top' : 'bottom',
    theme: script.getAttribute('data-theme') === 'dark' ? 'dark' : 'light',
  };
}
