// Prints the gzip size of the JavaScript the browser must load before `/` can render, and fails
// the build when it is over budget. That is the entry chunk, the chunks of the `/` route that the
// router loads at once (its code-split component), and every chunk those import statically; chunks
// only reached through a dynamic import (other routes, chart.js) are left out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

type Manifest = Record<string, ManifestChunk>;

const budgetBytes = 200 * 1024;
const distDir = fileURLToPath(new URL('../dist/', import.meta.url));

function readManifest(): Manifest {
  return JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** Manifest keys of the chunks a set of roots loads statically, roots included. */
function collectStaticClosure(manifest: Manifest, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const key = pending.pop();
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) pending.push(imported);
  }
  return seen;
}

function gzipSizeOf(file: string): number {
  return gzipSync(readFileSync(join(distDir, file))).length;
}

function formatKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function reportInitialSize(): number {
  const manifest = readManifest();
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length === 0) throw new Error('The Vite manifest has no entry chunk');
  // The landing route's split component is requested as soon as the router matches `/`.
  const landingRouteChunks = Object.keys(manifest).filter((key) => /^src\/routes\/(index|__root)\.tsx/.test(key));
  const keys = collectStaticClosure(manifest, [...entries.map(([key]) => key), ...landingRouteChunks]);

  const rows = [...keys]
    .map((key) => manifest[key])
    .filter((chunk): chunk is ManifestChunk => chunk !== undefined && chunk.file.endsWith('.js'))
    .map((chunk) => ({ file: chunk.file, gzip: gzipSizeOf(chunk.file) }))
    .sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, row) => sum + row.gzip, 0);

  console.log('\nInitial JavaScript for `/` (gzip):');
  for (const row of rows) console.log(`  ${formatKb(row.gzip).padStart(10)}  ${row.file}`);
  console.log(`  ${formatKb(total).padStart(10)}  total (budget ${formatKb(budgetBytes)})`);

  const lazy = Object.values(manifest).filter((chunk) => chunk.file.endsWith('.js') && !rows.some((row) => row.file === chunk.file));
  const lazyTotal = lazy.reduce((sum, chunk) => sum + gzipSizeOf(chunk.file), 0);
  console.log(`  ${formatKb(lazyTotal).padStart(10)}  in ${lazy.length} lazily loaded chunks (other routes, charts)`);
  return total;
}

const total = reportInitialSize();
if (total > budgetBytes) {
  console.error(`\nInitial JavaScript for \`/\` is ${formatKb(total)} gzipped, over the ${formatKb(budgetBytes)} budget.`);
  process.exit(1);
}
