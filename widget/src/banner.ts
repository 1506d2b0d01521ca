// The consent banner, its preference centre, the floating "Cookie settings" button, the opt-out link of
// opt-out regions and the placeholders of blocked embeds — rendered in open shadow roots so the host
// page's CSS cannot restyle them and theirs cannot leak out. Built with createElement rather than
// innerHTML, so pages that enforce Trusted Types still get a banner, and every owner-supplied string
// (texts included) goes in as text or an attribute, never as markup.

import { AA_NON_TEXT, AA_TEXT, contrastRatio, ensureContrast, INK, pickButtonColors, WHITE } from './contrast';
import type { WidgetConfig } from './config';
import { listen } from './guard';
import { grant, PURPOSES, type Granted, type Method, type Purpose } from './purposes';
import type { Position, Theme } from './snippet';

/** Where and how the banner sits (from the snippet). */
export interface BannerLayout {
  position: Position;
  theme: Theme;
}

/** What the banner reports, and what it asks of the widget. */
export interface BannerHandlers {
  /** A decision on the first layer, in the preference centre (after it closed) or on a placeholder. */
  choose(purposes: Granted, method: Method, fromPlaceholder?: boolean): void;
  /** The "Do Not Sell or Share" link was used. */
  optOut(): void;
  /** The purposes granted now; null while nothing is decided (nothing can be dismissed then). */
  current(): Granted | null;
}

export interface BannerUi {
  /** The light-DOM element holding the shadow root (a custom tag, so no page rule for div/section hits it). */
  host: HTMLElement;
  root: ShadowRoot;
  /** Shows the first layer; `focus` moves focus into it. `notice` shows a notice without Accept/Reject. */
  open(focus: boolean, notice?: boolean): void;
  /** Shows the preference centre, a modal dialog, with the switches as currently granted. */
  openCentre(): void;
  /**
   * Shows the floating button (or the opt-out link) instead, keeping keyboard focus with the widget.
   * Leaving the centre with nothing decided (not `decided`) goes back to the first layer instead.
   */
  close(decided?: boolean): void;
  /** In opt-out regions: the "Do Not Sell or Share" link stands beside the floating button. */
  showOptOut(optedOut: boolean): void;
  /** The placeholder put before an embed blocked for `purpose`. */
  placeholder(purpose: Purpose): HTMLElement;
}

/** A banner built ahead of its config; `mount` fills in branding and texts and puts it on the page (once). */
export interface PendingBanner extends BannerUi {
  mount(config: WidgetConfig): void;
}

/** Banner background, text, secondary text, per theme; all pairs are far above AA. */
const THEMES: Record<Theme, [string, string, string]> = {
  light: [WHITE, INK, '#374151'],
  dark: [INK, '#f9fafb', '#d1d5db'],
};

const CSS =
  // !important: for important declarations the shadow tree's win over the page's (even `* {…!important}`),
  // and everything inside inherits from the reset host.
  ':host{all:initial!important}' +
  '*{box-sizing:border-box}' +
  '.w{font:15px/1.45 system-ui,sans-serif;color:var(--tx)}' +
  '[hidden]{display:none!important}' +
  // max-height and overflow: at 400% zoom the banner must still scroll rather than hide its buttons.
  '.b{position:fixed;inset:auto 0 0;z-index:2147483647;display:flex;flex-wrap:wrap;' +
  'align-items:center;justify-content:center;gap:12px 32px;padding:16px 20px;max-height:100vh;' +
  'overflow:auto;background:var(--bg);box-shadow:0 0 16px #0004}' +
  '.top{inset:0 0 auto}' +
  '.i{flex:1 1 320px;max-width:720px}' +
  '.h{display:flex;align-items:center;gap:10px}' +
  'img{max-height:32px;max-width:128px}' +
  'h2{margin:0;font-size:17px;flex:1}' +
  'h3{margin:0;font-size:15px;flex:1}' +
  'p{margin:6px 0 0;color:var(--mu)}' +
  'a{color:var(--ln)}' +
  // A grid of equal columns: on a narrow screen a button that wraps keeps the others' width.
  '.a{display:grid;grid-template-columns:repeat(auto-fit,minmax(130px,1fr));gap:12px;flex:0 1 480px}' +
  'button{margin:0;cursor:pointer;font:inherit;font-weight:600;background:var(--pb);color:var(--pf);' +
  'border:2px solid var(--bd)}' +
  // One rule for every choice: equal size, weight and colour, so none is the "easy" one.
  '.c{min-height:44px;padding:10px 16px;border-radius:8px}' +
  ':focus-visible{outline:3px solid var(--tx);outline-offset:2px}' +
  '.f{position:fixed;inset-inline-start:16px;bottom:16px;z-index:2147483646;width:44px;height:44px;padding:10px;' +
  'border-radius:50%;box-shadow:0 2px 8px #0006}' +
  // The page behind the button is unknown: a two-tone ring shows on any background.
  '.f:focus-visible{outline:3px solid var(--pb);outline-offset:3px;box-shadow:0 0 0 3px var(--pf)}' +
  '.o{position:fixed;inset-inline-start:72px;bottom:20px;z-index:2147483646;padding:6px 12px;border-radius:6px;font-size:13px}' +
  'svg{display:block;fill:currentColor}' +
  // The preference centre: a modal over a dimmed page.
  '.m{position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;background:#0009}' +
  '.pc{background:var(--bg);width:calc(100% - 16px);max-width:600px;max-height:calc(100% - 16px);overflow:auto;' +
  'padding:20px;border-radius:12px}' +
  '.r{display:flex;align-items:center;gap:12px;margin-top:18px}' +
  '.x{width:44px;height:44px;border-radius:50%;font-size:20px;line-height:1}' +
  'ul{margin:6px 0 0;padding-inline-start:20px;color:var(--mu)}' +
  'summary{cursor:pointer;color:var(--ln)}' +
  // Switches: off is a track in the secondary text colour (4.5:1 on the background), on is the
  // button colour with its edge; the thumb contrasts with either.
  '.s{appearance:none;margin:0;flex:none;position:relative;width:48px;height:28px;' +
  'border-radius:14px;background:var(--mu);border:2px solid var(--mu);cursor:pointer}' +
  '.s::before{content:"";position:absolute;top:2px;inset-inline-start:2px;width:20px;height:20px;border-radius:50%;' +
  'background:var(--bg)}' +
  '.s:checked{background:var(--pb);border-color:var(--bd)}' +
  '.s:checked::before{inset-inline-start:22px;background:var(--pf)}' +
  '.ph{display:block;padding:16px;border:2px dashed var(--mu);background:var(--bg);border-radius:8px;text-align:center}';

// A cookie with a bite out of it; the chips are holes (evenodd), so it reads on any button colour.
const COOKIE_PATH = 'M12 2a10 10 0 1 0 10 10 3 3 0 0 1-4-4 3 3 0 0 1-3-3 3 3 0 0 1-3-3zM7 7h3v3H7zm1 7h3v3H8zm6 0h3v3h-3z';
const SVG_NS = 'http://www.w3.org/2000/svg';
const BUTTON = 'button';

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

/** A text of the config with `{company}` and `{purpose}` filled in (as text: it is never parsed). */
export function fillText(template: string | undefined, company: string, purpose = ''): string {
  return (template || '').replace(/\{company\}/g, company).replace(/\{purpose\}/g, purpose);
}

/** Styles a shadow root: a constructed stylesheet is not subject to a page's CSP style-src; <style> is the fallback. */
function style(root: ShadowRoot, doc: Document): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } catch {
    const s = doc.createElement('style');
    s.textContent = CSS;
    root.append(s);
  }
}

/**
 * Builds the banner, preference centre and button, hidden and off the page, from what the snippet
 * says. The widget does this while the website's config is on its way: once it arrives `mount` fills
 * in the branding and texts and puts everything, still hidden, at the start of <body>, so keyboard and
 * screen-reader users meet the banner before the page.
 */
export function createBanner(doc: Document, layout: BannerLayout, handlers: BannerHandlers): PendingBanner {
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
  style(root, doc);

  // Set by mount; nothing below that reads it runs before (texts, choices and placeholders all follow it).
  let config!: WidgetConfig;
  const t = (key: string, purpose?: Purpose): string =>
    fillText(config.texts[key], config.companyName, purpose && t(purpose));

  const wrap = el('div', { class: 'w' });
  const heading = el('div', { class: 'h' });
  const title = el('h2', { id: 't' });
  heading.append(title);
  const notice = el('p', { id: 'd' });
  const actions = el('div', { class: 'a' });

  const banner = el('div', {
    id: 'b',
    class: layout.position === 'top' ? 'b top' : 'b',
    role: 'dialog',
    'aria-modal': 'false',
    'aria-labelledby': 't',
    'aria-describedby': 'd',
    tabindex: '-1',
  });
  banner.append(el('div', { class: 'i' }, heading, notice), actions);

  const centreTitle = el('h2', { id: 'pt' });
  const centre = el('div', { class: 'pc', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'pt', tabindex: '-1' });
  const overlay = el('div', { class: 'm' }, centre);
  const switches: Partial<Record<Purpose, HTMLInputElement>> = {};

  const button = (label: string, onClick: () => void, cls = 'c'): HTMLButtonElement => {
    const b = el(BUTTON, { type: BUTTON, class: cls }, label);
    listen(b, 'click', onClick);
    return b;
  };
  const fab = button('', () => ui.openCentre(), 'f');
  fab.setAttribute('aria-controls', 'b');
  const svg = (tag: string, attrs: Record<string, string>): Element => {
    const e = doc.createElementNS(SVG_NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k] as string);
    return e;
  };
  const icon = svg('svg', { viewBox: '0 0 24 24', width: '24', 'aria-hidden': 'true' });
  icon.append(svg('path', { d: COOKIE_PATH, 'fill-rule': 'evenodd' }));
  fab.append(icon);
  const optOutLink = button('', () => handlers.optOut(), 'o');

  // 0: nothing but the button, 1: the first layer, 2: the preference centre.
  const show = (layer: 0 | 1 | 2): void => {
    banner.hidden = layer !== 1;
    overlay.hidden = layer !== 2;
    fab.hidden = !!layer;
    fab.setAttribute('aria-expanded', String(!!layer));
  };

  const decide = (purposes: Granted, method: Method): void => {
    ui.close(true);
    handlers.choose(purposes, method);
  };
  const offered = (): Purpose[] => config.purposes;
  const acceptAll = (): void => decide(grant(offered(), true), 'accept_all');
  const rejectAll = (): void => decide(grant(offered(), false), 'reject_all');

  const ui: PendingBanner = {
    host,
    root,
    mount(loaded) {
      config = loaded;
      const palette = computePalette(loaded.primaryColor, layout.theme);
      for (const k in palette) wrap.style.setProperty(k, palette[k] as string);
      wrap.setAttribute('lang', loaded.language);
      wrap.setAttribute('dir', loaded.dir);
      if (loaded.logoUrl) heading.prepend(el('img', { src: loaded.logoUrl, alt: '' }));
      title.textContent = t('title');
      notice.append(t('notice') + ' ');
      const policy = (): HTMLAnchorElement =>
        el('a', { href: loaded.privacyPolicyUrl as string, target: '_blank', rel: 'noopener' }, t('privacyPolicy'));
      if (loaded.privacyPolicyUrl) notice.append(policy());
      // Order and class are the dark-pattern guard: Reject All comes before Accept All and looks the same.
      actions.append(
        button(t('customize'), () => ui.openCentre()),
        button(t('rejectAll'), rejectAll),
        button(t('acceptAll'), acceptAll),
        button(t('close'), () => ui.close()),
      );
      fab.setAttribute('aria-label', t('settings'));
      // A tooltip for sighted mouse users: the icon alone may not say what the button does.
      fab.setAttribute('title', t('settings'));
      optOutLink.textContent = t('doNotSell');

      centreTitle.textContent = t('centreTitle');
      const list = el('div', {});
      const row = (purpose: 'necessary' | Purpose, control: HTMLElement): void => {
        const description = el('p', { id: 'x' + purpose }, t(purpose + 'Description'));
        const label =
          purpose === 'necessary' ? el('h3', {}, t(purpose)) : el('h3', {}, el('label', { for: 's' + purpose }, t(purpose)));
        list.append(el('div', { class: 'r' }, label, control), description);
        const services = loaded.services.filter((s) => s.purpose === purpose);
        if (services.length > 0) {
          const items = services.map((s) =>
            el('li', {}, el('b', {}, s.name), s.description ? ': ' + s.description : '', s.cookies.length ? ' (' + s.cookies.join(', ') + ')' : ''),
          );
          list.append(el('details', {}, el('summary', {}, t('services') + ' (' + services.length + ')'), el('ul', {}, ...items)));
        }
      };
      row('necessary', el('b', {}, t('alwaysOn')));
      for (const purpose of loaded.purposes) {
        const input = el('input', { type: 'checkbox', role: 'switch', class: 's', id: 's' + purpose, 'aria-describedby': 'x' + purpose });
        switches[purpose] = input;
        row(purpose, input);
      }
      if (loaded.privacyPolicyUrl) list.append(el('p', {}, policy()));
      const closeCentre = button('×', () => ui.close(), 'x');
      closeCentre.setAttribute('aria-label', t('close'));
      centre.append(
        el('div', { class: 'h' }, centreTitle, closeCentre),
        el('p', {}, t('centreIntro')),
        list,
        el(
          'div',
          { class: 'a', style: 'margin-top:20px' },
          button(t('rejectAll'), rejectAll),
          button(t('save'), () => decide(grant(offered(), (p) => !!switches[p]?.checked), 'custom')),
          button(t('acceptAll'), acceptAll),
        ),
      );
      doc.body.prepend(host);
    },
    open(focus, noticeOnly = false) {
      const buttons = actions.children as HTMLCollectionOf<HTMLElement>;
      // Reject All and Accept All, or (a notice, where the rule grants by default) just Close.
      (buttons[1] as HTMLElement).hidden = (buttons[2] as HTMLElement).hidden = noticeOnly;
      (buttons[3] as HTMLElement).hidden = !noticeOnly;
      show(1);
      if (focus) banner.focus();
    },
    openCentre() {
      const granted = handlers.current();
      for (const p of PURPOSES) {
        const s = switches[p];
        if (s) s.checked = !!granted && granted[p];
      }
      show(2);
      centre.focus();
    },
    close(decided) {
      // Closing the centre with nothing decided goes back to the first layer: the visitor still has to choose.
      if (!decided && !overlay.hidden && !handlers.current()) {
        show(1);
        banner.focus();
        return;
      }
      // Focus on a control that disappears would drop to <body>; hand it to the settings button.
      const hadFocus = !!root.activeElement;
      show(0);
      if (hadFocus) fab.focus();
    },
    showOptOut(optedOut) {
      optOutLink.hidden = false;
      optOutLink.disabled = optedOut;
      if (optedOut) optOutLink.textContent = t('optedOut');
    },
    placeholder(purpose) {
      const ph = doc.createElement('consentry-placeholder');
      const phRoot = ph.attachShadow({ mode: 'open' });
      style(phRoot, doc);
      const box = el('div', { class: 'w ph', lang: config.language, dir: config.dir });
      const palette = computePalette(config.primaryColor, layout.theme);
      for (const k in palette) box.style.setProperty(k, palette[k] as string);
      box.append(
        el('p', { style: 'margin:0 0 10px' }, t('blocked', purpose)),
        button(t('enable', purpose), () => {
          const now = handlers.current();
          handlers.choose(grant(offered(), (p) => p === purpose || (!!now && now[p])), 'custom', true);
        }),
      );
      phRoot.append(box);
      return ph;
    },
  };

  // Escape leaves the centre (back to the first layer while nothing is decided) and closes a reopened
  // banner; a first banner stays until the visitor chooses.
  listen<KeyboardEvent>(wrap, 'keydown', (e) => {
    if (e.key === 'Escape' && (!overlay.hidden || handlers.current())) ui.close();
    // The centre is modal: Tab cycles through its own controls.
    if (e.key === 'Tab' && !overlay.hidden) {
      const focusable = Array.from(centre.querySelectorAll<HTMLElement>('button,input,summary,a[href]'));
      const first = focusable[0] as HTMLElement;
      const last = focusable[focusable.length - 1] as HTMLElement;
      const active = root.activeElement;
      if (e.shiftKey ? active === first || active === centre : active === last) {
        e.preventDefault();
        (e.shiftKey ? last : first).focus();
      }
    }
  });

  show(0);
  fab.hidden = true;
  optOutLink.hidden = true;
  wrap.append(banner, overlay, fab, optOutLink);
  root.append(wrap);
  return ui;
}
