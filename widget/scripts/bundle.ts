// The widget's two bundles and how each is built: one minified IIFE per entry, for every browser from
// es2020 on. esbuild bundles and minifies; terser minifies that again, because its several compress
// passes make the widget ~5% smaller than esbuild's single pass (≈400 B gzipped on the 8 KB budget),
// and every visitor of every site downloads it. Starting terser from esbuild's minified syntax, and
// letting it hoist functions and write function expressions as arrows, saves another ≈65 B. Used by
// build.ts, and by the real-browser tests, which serve what is shipped.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { minify } from 'terser';

export interface Bundle {
  /** The file under dist/. */
  file: string;
  /** The entry under src/. */
  entry: string;
  /** Gzipped bytes above which check-size fails, and the goal it warns above. */
  limit: number;
  goal: number;
}

export const BUNDLES: readonly Bundle[] = [
  // Every visitor of every customer site downloads it, so it must stay small (with the preference
  // centre, about half of vanilla-cookieconsent's 15.5 KB).
  { file: 'widget.js', entry: 'index.ts', limit: 8192, goal: 7680 },
  // The form capture, fetched only by visitors who allowed identification.
  { file: 'identify.js', entry: 'identify-entry.ts', limit: 3072, goal: 2048 },
];

/** Property names terser may shorten: only ones no browser API, stored value or request body uses. */
export const MANGLED_PROPERTIES = /^(openCentre|showOptOut|optOut|choose|current|mount|beacon|flush)$/;

/** The minified code of `bundle`. */
export async function buildBundle(bundle: Bundle): Promise<string> {
  const result = await build({
    entryPoints: [new URL(`../src/${bundle.entry}`, import.meta.url).pathname],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    legalComments: 'none',
    minify: true,
    write: false,
    logLevel: 'warning',
  });
  const bundled = result.outputFiles[0]?.text;
  if (!bundled) throw new Error(`esbuild produced no output for ${bundle.file}`);
  const minified = await minify(bundled, {
    ecma: 2020,
    toplevel: true,
    // unsafe_arrows: safe here, as no function of ours is called with `new` or has its prototype used
    // (terser keeps those that use `this` or `arguments`).
    compress: { passes: 3, hoist_funs: true, unsafe_arrows: true },
    // Methods the widget's modules call on one another (the banner's, its handlers', the outbox's),
    // never on the page's or the browser's objects, nor sent or stored, nor called across the two
    // bundles (each is mangled on its own): short names, ≈25 B fewer.
    mangle: { properties: { regex: MANGLED_PROPERTIES } },
    // Single quotes, as the CSS (which holds double ones) is written: a few bytes fewer gzipped.
    format: { comments: false, quote_style: 1 },
  });
  if (!minified.code) throw new Error(`terser produced no output for ${bundle.file}`);
  return minified.code;
}

/**
 * What the server sends a visitor: the bundle compressed once at build, at maximum effort (Brotli at
 * quality 11, gzip at level 9), written beside it as `<file>.br` and `<file>.gz` (the ingest service
 * serves these by Accept-Encoding, docs/architecture.md, "Compression and caching").
 */
export const COMPRESSED = {
  br: (code: Buffer): Buffer =>
    brotliCompressSync(code, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: code.byteLength,
      },
    }),
  gz: (code: Buffer): Buffer => gzipSync(code, { level: 9 }),
} as const;

/** Gzipped size at level 9, as a CDN or a pre-compressing server would serve it. */
export const gzipSize = (code: string | Buffer): number => COMPRESSED.gz(Buffer.from(code)).byteLength;
