// Builds dist/widget.js and dist/identify.js (scripts/bundle.ts) and prints their raw and gzip sizes,
// the numbers the size budgets are about.
import { mkdirSync, writeFileSync } from 'node:fs';
import { BUNDLES, buildBundle, gzipSize } from './bundle';

const dist = new URL('../dist/', import.meta.url);
mkdirSync(dist, { recursive: true });
for (const bundle of BUNDLES) {
  const code = Buffer.from(await buildBundle(bundle));
  writeFileSync(new URL(bundle.file, dist), code);
  console.log(`dist/${bundle.file}  ${code.byteLength} B raw, ${gzipSize(code)} B gzip`);
}
