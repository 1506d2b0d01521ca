// Builds dist/widget.js and dist/identify.js (scripts/bundle.ts), each with its Brotli and gzip forms
// beside it (widget.js.br, widget.js.gz: what visitors download), and prints the three sizes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { BUNDLES, buildBundle, COMPRESSED } from './bundle';

const dist = new URL('../dist/', import.meta.url);
mkdirSync(dist, { recursive: true });
for (const bundle of BUNDLES) {
  const code = Buffer.from(await buildBundle(bundle));
  const br = COMPRESSED.br(code);
  const gz = COMPRESSED.gz(code);
  // The forms after the file: `npm run build` keeps forms newer than their file (services/server/
  // scripts/precompress.ts), and the server checks they match before sending them.
  writeFileSync(new URL(bundle.file, dist), code);
  writeFileSync(new URL(`${bundle.file}.br`, dist), br);
  writeFileSync(new URL(`${bundle.file}.gz`, dist), gz);
  console.log(`dist/${bundle.file}  ${code.byteLength} B raw, ${gz.byteLength} B gzip, ${br.byteLength} B brotli`);
}
