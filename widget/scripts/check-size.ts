// The size budgets CI enforces on dist/ (scripts/bundle.ts), measured on what a visitor downloads:
// the built .gz and .br files the server sends (each checked to decompress to the built bundle).
// widget.js fails above 8 KB gzipped and warns above its 7.5 KB goal; identify.js, fetched only
// after a visitor allowed identification, fails above 3 KB. Brotli is printed beside gzip; the budget
// is on gzip, the larger of the two (Firefox and Safari offer `br` over https only). Run after `build`.
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BUNDLES } from './bundle';

let failed = false;
for (const { file, limit, goal } of BUNDLES) {
  let code: Buffer, gz: Buffer, br: Buffer;
  try {
    code = readFileSync(new URL(`../dist/${file}`, import.meta.url));
    gz = readFileSync(new URL(`../dist/${file}.gz`, import.meta.url));
    br = readFileSync(new URL(`../dist/${file}.br`, import.meta.url));
  } catch {
    console.error(`dist/${file} or its .gz or .br is missing: run \`npm run build -w @consentry/widget\` first`);
    failed = true;
    continue;
  }
  if (!gunzipSync(gz).equals(code) || !brotliDecompressSync(br).equals(code)) {
    console.error(`dist/${file}.gz or .br is not dist/${file} compressed: run \`npm run build -w @consentry/widget\` again`);
    failed = true;
    continue;
  }
  const sizes = `${code.byteLength} B raw, downloaded as ${gz.byteLength} B gzip or ${br.byteLength} B brotli`;
  if (gz.byteLength > limit) {
    console.error(`dist/${file} is ${sizes}: over the ${limit} B gzip budget`);
    failed = true;
    continue;
  }
  console.log(`dist/${file} is ${sizes} (gzip budget ${limit} B, goal ${goal} B)`);
  if (gz.byteLength > goal) console.warn(`warning: dist/${file} is above the ${goal} B goal`);
}
if (failed) process.exit(1);
