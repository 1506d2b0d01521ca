// Builds dist/widget.js: one minified IIFE (CSS lives in the JS as a string) for every browser from
// es2019 on, and prints its raw and gzip sizes, the numbers the size budget is about.
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const widgetDir = new URL('..', import.meta.url);
const outfile = new URL('dist/widget.js', widgetDir);

const result = await build({
  entryPoints: [new URL('src/index.ts', widgetDir).pathname],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2019',
  platform: 'browser',
  legalComments: 'none',
  write: false,
  logLevel: 'warning',
});

const code = result.outputFiles[0]?.contents;
if (!code) throw new Error('esbuild produced no output');
mkdirSync(new URL('dist/', widgetDir), { recursive: true });
writeFileSync(outfile, code);
console.log(`dist/widget.js  ${code.byteLength} B raw, ${gzipSync(code, { level: 9 }).byteLength} B gzip`);
