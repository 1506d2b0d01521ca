// Colour arithmetic for the banner: the owner picks any primary colour, and the widget must still
// meet WCAG AA (4.5:1 for text) in both themes, so every colour pairing goes through these functions.

export type Rgb = [number, number, number];

export const DEFAULT_PRIMARY = '#2563eb';
export const WHITE = '#ffffff';
/** The light theme's text colour, also the "dark text" tried on light primary colours. */
export const INK = '#111827';
/** WCAG AA for normal-size text. */
export const AA_TEXT = 4.5;
/** WCAG 1.4.11: a button's boundary against the banner background. */
export const AA_NON_TEXT = 3;

/** `#rrggbb` (any case, as the admin's colour input stores it) in lower case; anything else as null. */
export function normalizeHex(value: unknown): string | null {
  const v = String(value).trim().toLowerCase();
  return /^#[0-9a-f]{6}$/.test(v) ? v : null;
}

export function parseHex(hex: string): Rgb {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function toHex(rgb: Rgb): string {
  return '#' + rgb.map((c) => (Math.round(c) + 256).toString(16).slice(1)).join('');
}

/** WCAG 2.x relative luminance, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio, 1 to 21, independent of argument order. */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * `color`, mixed towards black (on light backgrounds) or white (on dark ones) in 10% steps until it
 * reaches `min` against `background`. The nearest passing shade keeps as much of the brand as AA allows.
 * Pure black/white always pass 4.5 against a background on the matching side of luminance 0.18.
 */
export function ensureContrast(color: string, background: string, min: number): string {
  const target: Rgb = relativeLuminance(background) > 0.18 ? [0, 0, 0] : [255, 255, 255];
  const rgb = parseHex(color);
  for (let step = 0; step <= 10; step++) {
    const mixed = toHex(rgb.map((c, i) => c + ((target[i] as number) - c) * (step / 10)) as Rgb);
    if (contrastRatio(mixed, background) >= min) return mixed;
  }
  return toHex(target);
}

export interface ButtonColors {
  /** Button fill. */
  background: string;
  /** Button label. */
  text: string;
}

/**
 * Fill and label for a button in the owner's primary colour: white text when it passes AA, else the
 * theme's dark ink (light brand colours such as yellow), else the primary colour darkened until white
 * passes (mid-greys, where neither does).
 */
export function pickButtonColors(primary: string): ButtonColors {
  if (contrastRatio(primary, WHITE) >= AA_TEXT) return { background: primary, text: WHITE };
  if (contrastRatio(primary, INK) >= AA_TEXT) return { background: primary, text: INK };
  return { background: ensureContrast(primary, WHITE, AA_TEXT), text: WHITE };
}
