import { afterEach, describe, expect, it, vi } from 'vitest';
import { computePalette, createBanner, fillText, type BannerHandlers, type BannerLayout } from './banner';
import { parseConfig, type WidgetConfig } from './config';
import { contrastRatio } from './contrast';
import { CONFIG } from './page.test-helper';
import type { Granted } from './purposes';

const LAYOUT: BannerLayout = { position: 'bottom', theme: 'light' };
const content = (overrides: Record<string, unknown> = {}): WidgetConfig =>
  parseConfig({ ...CONFIG, companyName: 'Acme <b>Bakery</b>', logoUrl: null, privacyPolicyUrl: null, ...overrides }) as WidgetConfig;

/** The banner as the widget puts it on the page once the config arrived. */
function mountBanner(handlers: Partial<BannerHandlers> = {}, config = content()) {
  let current: Granted | null = null;
  const ui = createBanner(document, LAYOUT, {
    choose: (purposes) => {
      current = purposes;
    },
    optOut: () => {},
    current: () => current,
    ...handlers,
  });
  ui.mount(config);
  return ui;
}

afterEach(() => {
  document.body.innerHTML = '';
  document.head.innerHTML = '';
});

describe('computePalette', () => {
  for (const theme of ['light', 'dark'] as const) {
    describe(`in the ${theme} theme`, () => {
      it('meets AA for every text pairing, whatever the primary colour', () => {
        for (const primary of ['#2563eb', '#facc15', '#808080', '#ffffff', '#000000', '#1e3a8a', '#10b981', '#ef4444']) {
          const p = computePalette(primary, theme);
          const at = (k: string) => p[k] as string;
          expect(contrastRatio(at('--tx'), at('--bg')), `${primary} text`).toBeGreaterThanOrEqual(4.5);
          expect(contrastRatio(at('--mu'), at('--bg')), `${primary} notice`).toBeGreaterThanOrEqual(4.5);
          expect(contrastRatio(at('--ln'), at('--bg')), `${primary} link`).toBeGreaterThanOrEqual(4.5);
          expect(contrastRatio(at('--pf'), at('--pb')), `${primary} button`).toBeGreaterThanOrEqual(4.5);
          // The button's edge (fill or outline) stands out from the banner by 3:1 (WCAG 1.4.11).
          expect(contrastRatio(at('--bd'), at('--bg')), `${primary} edge`).toBeGreaterThanOrEqual(3);
        }
      });
    });
  }

  it('keeps the brand colour where it already passes', () => {
    expect(computePalette('#2563eb', 'light')).toEqual({
      '--bg': '#ffffff',
      '--tx': '#111827',
      '--mu': '#374151',
      '--ln': '#2563eb',
      '--pb': '#2563eb',
      '--pf': '#ffffff',
      '--bd': '#2563eb',
    });
  });

  it('outlines a button whose fill is too close to the banner background', () => {
    expect(computePalette('#ffffff', 'light')['--bd']).toBe('#111827');
    expect(computePalette('#111827', 'dark')['--bd']).toBe('#f9fafb');
  });
});

describe('fillText', () => {
  it('fills {company} and {purpose} as plain text', () => {
    expect(fillText('{company} uses cookies', 'A & <b>')).toBe('A & <b> uses cookies');
    expect(fillText('Allow {purpose} ({purpose})', 'x', 'Analytics')).toBe('Allow Analytics (Analytics)');
    expect(fillText(undefined, 'x')).toBe('');
  });
});

describe('createBanner', () => {
  it('stays off the page until mounted with the config', () => {
    const ui = createBanner(document, LAYOUT, { choose: () => {}, optOut: () => {}, current: () => null });
    expect(document.querySelector('consentry-widget')).toBeNull();
    expect(ui.root.querySelector('h2')?.textContent).toBe('');
    ui.mount(content());
    expect(document.body.firstElementChild).toBe(ui.host);
    expect(ui.root.querySelector('[role="dialog"]')?.hasAttribute('hidden')).toBe(true);
  });

  it('keeps its CSS inside its shadow root and adds nothing to the page head', () => {
    const ui = mountBanner();
    expect(ui.host.shadowRoot).toBe(ui.root);
    expect(document.head.children).toHaveLength(0);
    const sheets = Array.from(ui.root.adoptedStyleSheets);
    const css = sheets.length
      ? sheets.flatMap((s) => Array.from(s.cssRules, (r) => r.cssText)).join('')
      : (ui.root.querySelector('style')?.textContent ?? '');
    expect(css).toContain(':host');
    // Visible focus for keyboard users.
    expect(css).toContain('focus-visible');
  });

  it('puts owner text in as text, never as markup', () => {
    const ui = mountBanner({}, content({ texts: { ...CONFIG.texts, notice: '<img src=x onerror=alert(1)>' } }));
    expect(ui.root.querySelector('h2')?.textContent).toBe('Acme <b>Bakery</b> uses cookies');
    expect(ui.root.querySelector('h2 b')).toBeNull();
    expect(ui.root.querySelector('img')).toBeNull();
    expect(ui.root.querySelector('#d')?.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('starts hidden and reports the clicked choice with its method after closing', () => {
    const choose = vi.fn();
    const ui = mountBanner({ choose });
    const banner = ui.root.querySelector('[role="dialog"]') as HTMLElement;
    const fab = ui.root.querySelector('.f') as HTMLButtonElement;
    expect(banner.hidden).toBe(true);
    expect(fab.hidden).toBe(true);
    ui.open(false);
    expect(banner.hidden).toBe(false);
    const [, reject, accept] = Array.from(banner.querySelectorAll('button'));
    accept?.click();
    expect(choose).toHaveBeenLastCalledWith({ preferences: true, analytics: true, marketing: true, identification: false }, 'accept_all');
    expect(banner.hidden).toBe(true);
    expect(fab.hidden).toBe(false);
    expect(fab.getAttribute('aria-expanded')).toBe('false');
    ui.open(false);
    reject?.click();
    expect(choose).toHaveBeenLastCalledWith({ preferences: false, analytics: false, marketing: false, identification: false }, 'reject_all');
  });

  it('gives Reject All and Accept All the same class on both layers (the dark-pattern guard)', () => {
    const ui = mountBanner();
    for (const layer of Array.from(ui.root.querySelectorAll('[role="dialog"]'))) {
      const buttons = Array.from(layer.querySelectorAll('button'));
      const reject = buttons.find((b) => b.textContent === 'Reject All') as HTMLButtonElement;
      const accept = buttons.find((b) => b.textContent === 'Accept All') as HTMLButtonElement;
      expect(reject.className).toBe('c');
      expect(accept.className).toBe(reject.className);
      expect(accept.getAttribute('style')).toBe(reject.getAttribute('style'));
      // Reject All never comes after Accept All.
      expect(buttons.indexOf(reject)).toBeLessThan(buttons.indexOf(accept));
    }
  });

  it('gives the settings button an accessible name and a hidden icon', () => {
    const ui = mountBanner();
    const fab = ui.root.querySelector('.f') as HTMLButtonElement;
    expect(fab.getAttribute('aria-label')).toBe('Cookie settings');
    expect(fab.type).toBe('button');
    expect(fab.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('sets the language and direction of the texts', () => {
    const ui = mountBanner({}, content({ language: 'ar', dir: 'rtl' }));
    const wrap = ui.root.querySelector('.w') as HTMLElement;
    expect(wrap.getAttribute('lang')).toBe('ar');
    expect(wrap.getAttribute('dir')).toBe('rtl');
  });
});
