// Rebuilds open-cookie-database.json, NOTICE and LICENSE-open-cookie-database in this folder from a
// copy of the Open Cookie Database (its CSV, with SOURCE.md and LICENSE beside it):
//
//   node --import tsx services/jobs/src/scanner/cookie-database/build-data.ts [--check] [path-to-csv]
//
// With --check it writes nothing and exits 1 when the checked-in files differ from what the CSV gives
// (the CSV lives beside the repository, not in it, so this is not part of the test suite).
//
// The default path is the shared copy beside the repository (../shared/data/open-cookie-database/).
// The outputs are checked in, so nothing at run time needs the CSV.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertOpenCookieDatabase, describeSource, noticeText, serializeCookieDatabase } from './convert';
import type { CookieDatabaseSource } from './database';

const outputDirectory = dirname(fileURLToPath(import.meta.url));
export const defaultCsvPath = fileURLToPath(new URL('../../../../../../shared/data/open-cookie-database/open-cookie-database.csv', import.meta.url));

/** The JSON for the CSV at `csvPath`, whose SOURCE.md (beside it) names the source commit. */
export function buildCookieDatabaseJson(csvPath: string): string {
  return serializeCookieDatabase(convertOpenCookieDatabase(readFileSync(csvPath, 'utf8'), readSource(csvPath)));
}

function readSource(csvPath: string): CookieDatabaseSource {
  return describeSource(readFileSync(join(dirname(csvPath), 'SOURCE.md'), 'utf8'));
}

function main(): void {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const csvPath = resolve(args.find((arg) => arg !== '--check') ?? defaultCsvPath);
  const source = readSource(csvPath);
  const json = buildCookieDatabaseJson(csvPath);
  if (check) {
    const same =
      readFileSync(join(outputDirectory, 'open-cookie-database.json'), 'utf8') === json &&
      readFileSync(join(outputDirectory, 'NOTICE'), 'utf8') === noticeText(source) &&
      readFileSync(join(outputDirectory, 'LICENSE-open-cookie-database')).equals(readFileSync(join(dirname(csvPath), 'LICENSE')));
    console.log(same ? `up to date with ${csvPath}` : `out of date: rebuild from ${csvPath}`);
    process.exit(same ? 0 : 1);
  }
  writeFileSync(join(outputDirectory, 'open-cookie-database.json'), json);
  writeFileSync(join(outputDirectory, 'NOTICE'), noticeText(source));
  // Copied by content, not with copyFileSync: the shared copy is read-only and its mode would follow.
  writeFileSync(join(outputDirectory, 'LICENSE-open-cookie-database'), readFileSync(join(dirname(csvPath), 'LICENSE')));
  const count = (JSON.parse(json) as { entries: unknown[] }).entries.length;
  console.log(`wrote ${count} entries (${Buffer.byteLength(json)} bytes) from ${csvPath}, commit ${source.commit}`);
}

// Only when run as a script: tests import buildCookieDatabaseJson without writing anything.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
