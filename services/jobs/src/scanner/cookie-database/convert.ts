// Turns the Open Cookie Database CSV into the JSON Consentry ships. Pure (text in, text out), so the
// build is reproducible and a test can prove the checked-in JSON is exactly what the CSV gives.
// It keeps the factual columns only: the Description column is the authors' prose and its licence
// terms for us (SOURCE.md) say not to ship it. It throws on anything unexpected — a changed header,
// an unknown category, a duplicate id — so a new release of the database is looked at, not absorbed.
import { parseCsv } from './csv';
import { databaseCategory, type CookieDatabase, type CookieDatabaseEntry, type CookieDatabaseSource } from './database';

export const expectedHeader = [
  'ID',
  'Platform',
  'Category',
  'Cookie / Data Key name',
  'Domain',
  'Description',
  'Retention period',
  'Data Controller',
  'User Privacy & GDPR Rights Portals',
  'Wildcard match',
] as const;

const column = Object.fromEntries(expectedHeader.map((name, index) => [name, index])) as Record<(typeof expectedHeader)[number], number>;

/** What we change, stated in the JSON and the NOTICE (Apache-2.0 §4b asks modified files to say so). */
export const conversionChanges =
  'Converted from CSV to JSON keeping only the factual columns (the Description column is not included); ' +
  'surrounding whitespace and invisible characters (zero-width space, soft hyphen, byte-order mark) removed from fields; ' +
  'empty fields written as null; Wildcard match written as a boolean.';

export class CookieDatabaseFormatError extends Error {
  override readonly name = 'CookieDatabaseFormatError';
}

// Invisible characters found inside fields of the database (".commander1.com\u200b",
// "logglytrackings\u00adession"): they are typing accidents, never part of a cookie name or host.
// An alternation, not a character class: a zero-width joiner inside a class joins its neighbours.
const invisibleCharacters = /\u200b|\u200c|\u200d|\u00ad|\ufeff/g;

function cleanField(value: string): string {
  return value.replace(invisibleCharacters, '').trim();
}

function optionalField(value: string): string | null {
  const cleaned = cleanField(value);
  return cleaned === '' ? null : cleaned;
}

/** Reads the source commit (and its date, when given) from the SOURCE.md beside the CSV. */
export function readSourceCommit(sourceMarkdown: string): { commit: string; commitDate: string | null } {
  const match = /commit\s+([0-9a-f]{40})(?:\s+(\d{4}-\d{2}-\d{2}))?/.exec(sourceMarkdown);
  if (!match) throw new CookieDatabaseFormatError('SOURCE.md names no 40-character source commit');
  return { commit: match[1]!, commitDate: match[2] ?? null };
}

export function describeSource(sourceMarkdown: string): CookieDatabaseSource {
  return {
    name: 'Open Cookie Database',
    repository: 'https://github.com/jkwakman/Open-Cookie-Database',
    file: 'open-cookie-database.csv',
    ...readSourceCommit(sourceMarkdown),
    licence: 'Apache-2.0',
    changes: conversionChanges,
  };
}

export function convertOpenCookieDatabase(csvText: string, source: CookieDatabaseSource): CookieDatabase {
  const [header, ...rows] = parseCsv(csvText);
  if (!header || header.length !== expectedHeader.length || header.some((name, index) => name.trim() !== expectedHeader[index])) {
    throw new CookieDatabaseFormatError(`unexpected header: ${JSON.stringify(header)}`);
  }
  const seenIds = new Set<string>();
  const entries: CookieDatabaseEntry[] = [];
  rows.forEach((fields, index) => {
    const row = index + 2; // 1-based, after the header
    if (fields.length === 1 && fields[0] === '') return; // a blank line
    if (fields.length !== expectedHeader.length) {
      throw new CookieDatabaseFormatError(`row ${row}: ${fields.length} fields, expected ${expectedHeader.length}`);
    }
    const field = (name: (typeof expectedHeader)[number]): string => fields[column[name]]!;
    const id = cleanField(field('ID'));
    const name = cleanField(field('Cookie / Data Key name'));
    if (id === '' || name === '') throw new CookieDatabaseFormatError(`row ${row}: empty ID or name`);
    if (seenIds.has(id)) throw new CookieDatabaseFormatError(`row ${row}: duplicate ID ${id}`);
    seenIds.add(id);
    const category = databaseCategory.safeParse(cleanField(field('Category')));
    if (!category.success) throw new CookieDatabaseFormatError(`row ${row}: unknown category ${JSON.stringify(field('Category'))}`);
    const wildcard = cleanField(field('Wildcard match'));
    if (wildcard !== '0' && wildcard !== '1') throw new CookieDatabaseFormatError(`row ${row}: Wildcard match is ${JSON.stringify(wildcard)}`);
    // Key order here is the key order in the file.
    entries.push({
      id,
      platform: optionalField(field('Platform')),
      category: category.data,
      name,
      domain: optionalField(field('Domain')),
      retention: optionalField(field('Retention period')),
      controller: optionalField(field('Data Controller')),
      privacyPortal: optionalField(field('User Privacy & GDPR Rights Portals')),
      wildcard: wildcard === '1',
    });
  });
  return { source, entries };
}

/** One entry per line: small diffs when the database is updated, still valid JSON. */
export function serializeCookieDatabase(database: CookieDatabase): string {
  const entries = database.entries.map((entry) => `    ${JSON.stringify(entry)}`).join(',\n');
  return `{\n  "source": ${JSON.stringify(database.source)},\n  "entries": [\n${entries}\n  ]\n}\n`;
}

export function noticeText(source: CookieDatabaseSource): string {
  return [
    'Consentry',
    '',
    `Contains data from the Open Cookie Database (${source.repository}), commit ${source.commit}` +
      `${source.commitDate ? ` (${source.commitDate})` : ''}, licensed under the Apache License 2.0;`,
    'see LICENSE-open-cookie-database in this folder.',
    '',
    `Changes made by Consentry in open-cookie-database.json: ${conversionChanges}`,
    "The descriptions Consentry shows for cookies are its own wording, not the database's.",
    '',
  ].join('\n');
}
