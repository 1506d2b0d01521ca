// The consent banner and the floating "Cookie settings" button, rendered in an open shadow root so the
// host page's CSS cannot restyle them and theirs cannot leak out. Built with createElement rather than
// innerHTML, so pages that enforce Trusted Types still get a banner, and every owner-supplied string
// goes in as text or an attribute, never as markup.

import { ACCEPTED, DECLINED, type Choice } from './choice';
import { listen } from './guard';
import { AA_NON_TEXT, AA_TEXT, contrastRatio, ensureContrast, INK, pickButtonColors, WHITE } from './contrast';
import type { Position, Theme } from './snippet';

/** What the banner shows of the owner's branding (from the website's config). */
export interface Branding {
  companyName: string;
  /** Already checked to be an http(s) or data:image URL. */
  logoUrl: string | null;
  /** Already checked to be an http(s) URL. */
  privacyPolicyUrl: string | null;
  /** `#rrggbb`. */
  primaryColor: string;
}

/** Where and how the banner sits (from the snippet). */
export interface BannerLayout {
  position: Position;
  theme: Theme;
}

export type BannerContent = Branding & BannerLayout;

export interface BannerUi {
  /** The light-DOM element holding the shadow root (a custom tag, so no page rule for div/section hits it). */
  host: HTMLElement;
  root: ShadowRoot;
  /** Shows the banner instead of the floating button; `focus` moves focus into it (when asked for). */
  open(focus: boolean): void;
  /** Shows the floating button instead of the banner, keeping keyboard focus with the widget. */
  close(): void;
}

/** A banner built ahead of its branding; `mount` fills it in and puts it on the page (once). */
export interface PendingBanner extends BannerUi {
  mount(branding: Branding): void;
}

/** Banner background, text, secondary text, per theme; all pairs are far above AA. */
const THEMES: Record<Theme, [string, string, string]> = {
  light: [WHITE, INK, '#374151'],
  dark: ['#111827', '#f9fafb', '#d1d5db'],
};

// English only for now: the config's `language` is not used yet.
const NOTICE = 'We use cookies for analytics and marketing only if you accept. You can change your choice at any time. ';
const SETTINGS = 'Cookie settings';

const CSS =
  // !important: for important declarations the shadow tree's win over the page's (even `* {…!important}`),
  // and everything inside inherits from the reset host.
  ':host{all:initial!important}' +
  '*{box-sizing:border-box}' +
  '.w{font:15px/1.45 system-ui,sans-serif;color:var(--tx)}' +
  '[hidden]{display:none!important}' +
  // max-height and overflow: at 400% zoom the banner must still scroll rather than hide its buttons.
  '.b{position:fixed;left:0;right:0;bottom:0;z-index:2147483647;display:flex;flex-wrap:wrap;' +
  'align-items:center;justify-content:center;gap:12px 32px;padding:16px 20px;max-height:100vh;' +
  'overflow:auto;background:var(--bg);box-shadow:0 0 16px #0004}' +
  '.top{top:0;bottom:auto}' +
  '.i{flex:1 1 320px;max-width:720px}' +
  '.h{display:flex;align-items:center;gap:10px}' +
  'img{max-height:32px;max-width:128px}' +
  'h2{margin:0;font-size:17px}' +
  'p{margin:6px 0 0;color:var(--mu)}' +
  'a{color:var(--ln)}' +
  '.a{display:flex;gap:12px;flex:0 1 360px}' +
  'button{margin:0;cursor:pointer;font:inherit;font-weight:600;background:var(--pb);color:var(--pf);' +
  'border:2px solid var(--bd)}' +
  // One rule for both choices: equal size, weight and colour, so neither is the "easy" one.
  '.c{flex:1 1 0;min-height:44px;padding:10px 16px;border-radius:8px}' +
  ':focus-visible{outline:3px solid var(--tx);outline-offset:2px}' +
  '.f{position:fixed;left:16px;bottom:16px;z-index:2147483646;width:44px;height:44px;padding:10px;' +
  'border-radius:50%;box-shadow:0 2px 8px #0006}' +
  // The page behind the button is unknown: a two-tone ring shows on any background.
  '.f:focus-visible{outline:3px solid var(--pb);outline-offset:3px;box-shadow:0 0 0 3px var(--pf)}' +
  'svg{display:block;fill:currentColor}';

// A cookie with a bite out of it; the chips are holes (evenodd), so it reads on any button colour.
const COOKIE_PATH = 'M12 2a10 10 0 1 0 10 10 3 3 0 0 1-4-4 3 3 0 0 1-3-3 3 3 0 0 1-3-3zM7 7h3v3H7zm1 7h3v3H8zm6 0h3v3h-3z';
const SVG_NS = 'http://www.w3.org/2000/svg';

/** The colour custom properties of the banner for an owner's primary colour and a theme. */
export function computePalette(primaryColor: string, theme: Theme): Record<string, string> {
  const [bg, tx, mu] = THEMES[theme];
  const button = pickButtonColors(primaryColor);
  return {
    '--bg': bg,
    '--tx': tx,
    '--mu': mu,
    '--ln': ensureContrast(primaryColor, bg, AA_TEXT),
    '--pb': button.background,
    '--pf': button.text,
    // A fill too close to the banner background gets an outline in the text colour (WCAG 1.4.11).
    '--bd': contrastRatio(button.background, bg) < AA_NON_TEXT ? tx : button.background,
  };
}

/**
 * Builds the banner and button, hidden and off the page, from what the snippet says. The widget does
 * this while the website's config is on its way: the elements and the stylesheet are then ready, and
 * once the config arrives `mount` only fills in the branding and puts both, still hidden, at the start
 * of <body>, so keyboard and screen-reader users meet the banner before the page. Calls `onChoice`
 * after the banner closed on a click; Escape closes a reopened banner only when `canDismiss()` (a
 * choice exists already, so nothing is left undecided).
 */
export function createBanner(
  doc: Document,
  layout: BannerLayout,
  onChoice: (choice: Choice) => void,
  canDismiss: () => boolean,
): PendingBanner {
  const el = <K extends keyof HTMLElementTagNameMap>(
    tag: K,
    attrs: Record<string, string>,
    ...children: (Node | string)[]
  ): HTMLElementTagNameMap[K] => {
    const e = doc.createElement(tag);
    for (const k in attrs) e.setAttribute(k, attrs[k] as string);
    e.append(...children);
    return e;
  };

  const host = doc.createElement('consentry-widget');
  const root = host.attachShadow({ mode: 'open' });
  // A constructed stylesheet is not subject to a page's CSP style-src; <style> is the fallback.
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } catch {
    root.append(el('style', {}, CSS));
  }

  const wrap = el('div', { class: 'w', lang: 'en' });
  const heading = el('div', { class: 'h' });
  const title = el('h2', { id: 't' });
  heading.append(title);
  const notice = el('p', { id: 'd' }, NOTICE);

  const banner = el('div', {
    id: 'b',
    class: layout.position === 'top' ? 'b top' : 'b',
    role: 'dialog',
    'aria-modal': 'false',
    'aria-labelledby': 't',
    'aria-describedby': 'd',
    tabindex: '-1',
  });
  const fab = el('button', {
    type: 'button',
    class: 'f',
    'aria-label': SETTINGS,
    // A tooltip for sighted mouse users: the icon alone may not say what the button does.
    title: SETTINGS,
    'aria-controls': 'b',
    'aria-expanded': 'false',
  });
  const svg = (tag: string, attrs: Record<string, string>): Element => {
    const e = doc.createElementNS(SVG_NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k] as string);
    return e;
  };
  const icon = svg('svg', { viewBox: '0 0 24 24', width: '24', 'aria-hidden': 'true' });
  icon.append(svg('path', { d: COOKIE_PATH, 'fill-rule': 'evenodd' }));
  fab.append(icon);

  const setOpen = (open: boolean): void => {
    banner.hidden = !open;
    fab.hidden = open;
    fab.setAttribute('aria-expanded', String(open));
  };
  const ui: PendingBanner = {
    host,
    root,
    mount(branding) {
      const palette = computePalette(branding.primaryColor, layout.theme);
      for (const k in palette) wrap.style.setProperty(k, palette[k] as string);
      if (branding.logoUrl) heading.prepend(el('img', { src: branding.logoUrl, alt: '' }));
      title.textContent = branding.companyName + ' uses cookies';
      if (branding.privacyPolicyUrl) {
        notice.append(el('a', { href: branding.privacyPolicyUrl, target: '_blank', rel: 'noopener' }, 'Privacy policy'));
      }
      doc.body.prepend(host);
    },
    open(focus) {
      setOpen(true);
      if (focus) banner.focus();
    },
    close() {
      // Focus on a button that disappears would drop to <body>; hand it to the settings button.
      const hadFocus = !!root.activeElement;
      setOpen(false);
      if (hadFocus) fab.focus();
    },
  };

  const choiceButton = (choice: Choice, label: string): HTMLButtonElement => {
    const b = el('button', { type: 'button', class: 'c' }, label);
    listen(b, 'click', () => {
      ui.close();
      onChoice(choice);
    });
    return b;
  };

  banner.append(
    el('div', { class: 'i' }, heading, notice),
    el('div', { class: 'a' }, choiceButton(DECLINED, 'Decline'), choiceButton(ACCEPTED, 'Accept All')),
  );
  listen<KeyboardEvent>(banner, 'keydown', (e) => {
    if (e.key === 'Escape' && canDismiss()) ui.close();
  });
  listen(fab, 'click', () => ui.open(true));

  banner.hidden = true;
  fab.hidden = true;
  wrap.append(banner, fab);
  root.append(wrap);
  return ui;
}
