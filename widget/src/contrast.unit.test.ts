import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  ensureContrast,
  INK,
  normalizeHex,
  parseHex,
  pickButtonColors,
  relativeLuminance,
  toHex,
  WHITE,
} from './contrast';

describe('relativeLuminance and contrastRatio', () => {
  it('gives the WCAG extremes for black and white', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBe(1);
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
  });

  it('matches published ratios (WebAIM checker values)', () => {
    expect(contrastRatio('#2563eb', WHITE)).toBeCloseTo(5.17, 2);
    expect(contrastRatio('#767676', WHITE)).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', WHITE)).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#ffff00', '#000000')).toBeCloseTo(19.56, 2);
  });

  it('does not depend on argument order', () => {
    expect(contrastRatio('#2563eb', INK)).toBe(contrastRatio(INK, '#2563eb'));
  });
});

describe('normalizeHex, parseHex, toHex', () => {
  it('accepts #rrggbb in any case and trims', () => {
    expect(normalizeHex('#2563EB')).toBe('#2563eb');
    expect(normalizeHex(' #abcdef ')).toBe('#abcdef');
  });

  it('refuses anything else', () => {
    for (const bad of ['red', '#abc', 'rgb(1,2,3)', '#12345g', '', null, undefined, 42, '#2563eb;color:red']) {
      expect(normalizeHex(bad)).toBeNull();
    }
  });

  it('round-trips', () => {
    expect(parseHex('#2563eb')).toEqual([0x25, 0x63, 0xeb]);
    expect(toHex([0x25, 0x63, 0xeb])).toBe('#2563eb');
    expect(toHex([0, 7.6, 255])).toBe('#0008ff');
  });
});

describe('ensureContrast', () => {
  it('keeps a colour that already passes', () => {
    expect(ensureContrast('#2563eb', WHITE, 4.5)).toBe('#2563eb');
  });

  it('darkens a light colour on a light background until it passes', () => {
    const out = ensureContrast('#60a5fa', WHITE, 4.5);
    expect(out).not.toBe('#60a5fa');
    expect(contrastRatio(out, WHITE)).toBeGreaterThanOrEqual(4.5);
    // Darkened, not replaced: still the blue's hue (blue channel dominant).
    const [r, g, b] = parseHex(out);
    expect(b).toBeGreaterThan(r);
    expect(b).toBeGreaterThan(g);
  });

  it('lightens a dark colour on a dark background until it passes', () => {
    const out = ensureContrast('#1e3a8a', '#111827', 4.5);
    expect(contrastRatio('#1e3a8a', '#111827')).toBeLessThan(4.5);
    expect(contrastRatio(out, '#111827')).toBeGreaterThanOrEqual(4.5);
    expect(relativeLuminance(out)).toBeGreaterThan(relativeLuminance('#1e3a8a'));
  });

  it('reaches 4.5:1 against any background, mid-greys included', () => {
    for (let v = 0; v < 256; v += 5) {
      const background = toHex([v, v, v]);
      for (const color of ['#2563eb', '#facc15', '#808080', '#ffffff', '#000000']) {
        expect(contrastRatio(ensureContrast(color, background, 4.5), background), `${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});

describe('pickButtonColors', () => {
  it('uses white text on a dark enough primary colour', () => {
    expect(pickButtonColors('#2563eb')).toEqual({ background: '#2563eb', text: WHITE });
  });

  it('uses dark text on a light primary colour (yellow)', () => {
    expect(pickButtonColors('#facc15')).toEqual({ background: '#facc15', text: INK });
  });

  it('darkens a mid grey where neither white nor dark text passes', () => {
    expect(contrastRatio('#808080', WHITE)).toBeLessThan(4.5);
    expect(contrastRatio('#808080', INK)).toBeLessThan(4.5);
    const { background, text } = pickButtonColors('#808080');
    expect(text).toBe(WHITE);
    expect(background).toBe('#737373');
    expect(contrastRatio(background, WHITE)).toBeGreaterThanOrEqual(4.5);
  });

  it('always reaches AA, for every shade of every hue', () => {
    for (let v = 0; v < 256; v += 15) {
      for (const rgb of [[v, 0, 0], [0, v, 0], [0, 0, v], [v, v, 0], [v, v, v], [255, v, 128]] as const) {
        const { background, text } = pickButtonColors(toHex([rgb[0], rgb[1], rgb[2]]));
        expect(contrastRatio(background, text)).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});
