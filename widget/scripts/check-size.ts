// The size budgets CI enforces on dist/ (scripts/bundle.ts): widget.js fails above 8 KB gzipped and
// warns above its 7.5 KB goal; identify.js, fetched only after a visitor allowed identification, fails
// above 3 KB. Run after `build`.
import { readFileSync } from 'node:fs';
import { BUNDLES, gzipSize } from './bundle';

let failed = false;
for (const { file, limit, goal } of BUNDLES) {
  let code: Buffer;
  try {
    code = readFileSync(new URL(`../dist/${file}`, import.meta.url));
  } catch {
    console.error(`dist/${file} is missing: run \`npm run build -w @consentry/widget\` first`);
    failed = true;
    continue;
  }
  const gzip = gzipSize(code);
  if (gzip > limit) {
    console.error(`dist/${file} is ${gzip} B gzipped, over the ${limit} B budget`);
    failed = true;
    continue;
  }
  console.log(`dist/${file} is ${gzip} B gzipped (budget ${limit} B, goal ${goal} B)`);
  if (gzip > goal) console.warn(`warning: dist/${file} is above the ${goal} B goal`);
}
if (failed) process.exit(1);
