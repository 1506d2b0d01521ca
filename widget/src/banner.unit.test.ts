import { afterEach, describe, expect, it, vi } from 'vitest';
import { computePalette, createBanner, type BannerContent } from './banner';
import type { Choice } from './choice';
import { contrastRatio } from './contrast';

const CONTENT: BannerContent = {
  companyName: 'Acme <b>Bakery</b>',
  logoUrl: null,
  privacyPolicyUrl: null,
  primaryColor: '#2563eb',
  position: 'bottom',
  theme: 'light',
};

/** The banner as the widget puts it on the page once the config arrived. */
function mountBanner(onChoice: (choice: Choice) => void = () => {}) {
  const ui = createBanner(document, CONTENT, onChoice, () => false);
  ui.mount(CONTENT);
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

describe('createBanner', () => {
  it('stays off the page until mounted with the branding', () => {
    const ui = createBanner(document, CONTENT, () => {}, () => false);
    expect(document.querySelector('consentry-widget')).toBeNull();
    expect(ui.root.querySelector('h2')?.textContent).toBe('');
    ui.mount(CONTENT);
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
    const ui = mountBanner();
    expect(ui.root.querySelector('h2')?.textContent).toBe('Acme <b>Bakery</b> uses cookies');
    expect(ui.root.querySelector('b')).toBeNull();
  });

  it('starts hidden and reports the clicked choice after closing', () => {
    const onChoice = vi.fn();
    const ui = mountBanner(onChoice);
    const banner = ui.root.querySelector('[role="dialog"]') as HTMLElement;
    const fab = ui.root.querySelector('.f') as HTMLButtonElement;
    expect(banner.hidden).toBe(true);
    expect(fab.hidden).toBe(true);
    ui.open(false);
    expect(banner.hidden).toBe(false);
    (ui.root.querySelectorAll('.c')[1] as HTMLButtonElement).click();
    expect(onChoice).toHaveBeenCalledWith('accepted');
    expect(banner.hidden).toBe(true);
    expect(fab.hidden).toBe(false);
    expect(fab.getAttribute('aria-expanded')).toBe('false');
  });

  it('gives the settings button an accessible name and a hidden icon', () => {
    const ui = mountBanner();
    const fab = ui.root.querySelector('.f') as HTMLButtonElement;
    expect(fab.getAttribute('aria-label')).toBe('Cookie settings');
    expect(fab.type).toBe('button');
    expect(fab.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
  });
});
