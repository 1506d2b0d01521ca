// The shipped data: only the factual columns (never the authors' descriptions), attributed, and a
// converter that refuses a changed format. (That the checked-in files are what the CSV gives is
// `build-data.ts --check`: the CSV lives beside the repository, not in it.)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { convertOpenCookieDatabase, CookieDatabaseFormatError, describeSource, expectedHeader, noticeText, readSourceCommit } from './convert';
import { cookieDatabaseFileUrl, readCookieDatabase } from './database';

const folder = dirname(fileURLToPath(import.meta.url));
const checkedInJson = readFileSync(cookieDatabaseFileUrl, 'utf8');
const database = readCookieDatabase();
const factualKeys = ['id', 'platform', 'category', 'name', 'domain', 'retention', 'controller', 'privacyPortal', 'wildcard'];

describe('the checked-in database', () => {
  it('validates and names its source commit', () => {
    expect(database.entries).toHaveLength(2264);
    expect(database.source).toMatchObject({ commit: '0ee5a17fe1cb002943f89370d24fc26a4226061c', licence: 'Apache-2.0' });
  });

  it('holds only the factual columns: no entry has a description', () => {
    for (const entry of database.entries) expect(Object.keys(entry)).toEqual(factualKeys);
    expect(/"description"\s*:/i.test(checkedInJson)).toBe(false); // no such key anywhere
  });

  it('has no invisible characters or stray whitespace the CSV had in places', () => {
    const names = new Set(database.entries.map((entry) => entry.name));
    expect(names).toContain('ce_need_secure_cookie'); // "ce_need_secure_cookie\t" in the CSV
    expect(names).toContain('logglytrackingsession'); // with a soft hyphen in the CSV
    expect(database.entries.map((entry) => entry.domain)).toContain('.commander1.com'); // with a zero-width space
    expect(/[\u200b\u00ad\ufeff\t]/.test(checkedInJson)).toBe(false);
  });

  it('carries the Apache-2.0 attribution beside it', () => {
    const notice = readFileSync(join(folder, 'NOTICE'), 'utf8');
    expect(notice).toBe(noticeText(database.source));
    expect(notice).toContain('Contains data from the Open Cookie Database (https://github.com/jkwakman/Open-Cookie-Database), commit 0ee5a17fe1cb002943f89370d24fc26a4226061c');
    expect(notice).toContain('licensed under the Apache License 2.0');
    expect(readFileSync(join(folder, 'LICENSE-open-cookie-database'), 'utf8')).toContain('Apache License\n                           Version 2.0, January 2004');
  });
});

describe('convertOpenCookieDatabase', () => {
  const source = describeSource('commit 0123456789abcdef0123456789abcdef01234567 2026-01-21');
  const header = expectedHeader.join(',');
  const row = (overrides: Partial<Record<(typeof expectedHeader)[number], string>> = {}): string =>
    expectedHeader
      .map((column) => {
        const value = overrides[column] ?? { ID: 'id-1', Category: 'Analytics', 'Cookie / Data Key name': '_x', 'Wildcard match': '0' }[column as string] ?? '';
        return `"${value.replaceAll('"', '""')}"`;
      })
      .join(',');

  it('keeps the factual columns, writes empty fields as null and the wildcard as a boolean', () => {
    const csv = `${header}\n${row({ Description: 'Prose, with "quotes"\nand lines', Domain: ' .example.com ', 'Wildcard match': '1' })}\n`;
    expect(convertOpenCookieDatabase(csv, source).entries).toEqual([
      { id: 'id-1', platform: null, category: 'Analytics', name: '_x', domain: '.example.com', retention: null, controller: null, privacyPortal: null, wildcard: true },
    ]);
  });

  it('refuses a changed header', () => {
    expect(() => convertOpenCookieDatabase(`${header.replace('Domain', 'Host')}\n${row()}\n`, source)).toThrow(CookieDatabaseFormatError);
  });

  it('refuses an unknown category, a wildcard that is not 0 or 1, a duplicate id and a short row', () => {
    expect(() => convertOpenCookieDatabase(`${header}\n${row({ Category: 'Tracking' })}\n`, source)).toThrow(/unknown category/);
    expect(() => convertOpenCookieDatabase(`${header}\n${row({ 'Wildcard match': 'yes' })}\n`, source)).toThrow(/Wildcard match/);
    expect(() => convertOpenCookieDatabase(`${header}\n${row()}\n${row()}\n`, source)).toThrow(/duplicate ID/);
    expect(() => convertOpenCookieDatabase(`${header}\nid-2,Analytics\n`, source)).toThrow(/2 fields/);
  });

  it('reads the commit and its date from SOURCE.md, and refuses one without a commit', () => {
    expect(readSourceCommit('file `x.csv`,\n  commit 0ee5a17fe1cb002943f89370d24fc26a4226061c 2026-01-21.')).toEqual({
      commit: '0ee5a17fe1cb002943f89370d24fc26a4226061c',
      commitDate: '2026-01-21',
    });
    expect(() => readSourceCommit('no commit here')).toThrow(CookieDatabaseFormatError);
  });
});
