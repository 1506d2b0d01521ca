// The size budget CI enforces on dist/widget.js: every visitor of every customer site downloads it, so
// it must stay small (with the preference centre, about half of vanilla-cookieconsent's 15.5 KB). Fails
// above 8 KB gzipped; warns above the 7.5 KB goal. Run after `build`.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export const LIMIT_BYTES = 8192;
export const GOAL_BYTES = 7680;

const file = new URL('../dist/widget.js', import.meta.url);
let code: Buffer;
try {
  code = readFileSync(file);
} catch {
  console.error('dist/widget.js is missing: run `npm run build -w @consentry/widget` first');
  process.exit(1);
}
// Level 9, as a CDN or a pre-compressing server would serve it.
const gzip = gzipSync(code, { level: 9 }).byteLength;
if (gzip > LIMIT_BYTES) {
  console.error(`dist/widget.js is ${gzip} B gzipped, over the ${LIMIT_BYTES} B budget`);
  process.exit(1);
}
console.log(`dist/widget.js is ${gzip} B gzipped (budget ${LIMIT_BYTES} B, goal ${GOAL_BYTES} B)`);
if (gzip > GOAL_BYTES) console.warn(`warning: above the ${GOAL_BYTES} B goal`);
