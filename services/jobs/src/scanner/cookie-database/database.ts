// The shape of the Open Cookie Database as Consentry ships it (open-cookie-database.json, generated
// by build-data.ts): only the factual columns, never the authors' Description prose, plus where the
// data came from. The scanner reads it at run time; the CSV is needed only to rebuild it.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** The categories the database uses. "Necessary" appears on a few rows although its README lists five. */
export const databaseCategories = ['Functional', 'Security', 'Necessary', 'Personalization', 'Analytics', 'Marketing'] as const;
export const databaseCategory = z.enum(databaseCategories);
export type DatabaseCategory = z.infer<typeof databaseCategory>;

export const cookieDatabaseEntry = z.object({
  /** The database's own id (a UUID), stable across its releases. */
  id: z.string().min(1).max(64),
  platform: z.string().max(200).nullable(),
  category: databaseCategory,
  /** The cookie or storage key name; with `wildcard`, a prefix. */
  name: z.string().min(1).max(300),
  /** As the database writes it: a host, a cookie domain, "x (3rd party)", or "a or b"; see classify.ts. */
  domain: z.string().max(300).nullable(),
  /** Free text as the database writes it ("1 year", "session", "Session", "13 months"…). */
  retention: z.string().max(300).nullable(),
  controller: z.string().max(200).nullable(),
  privacyPortal: z.string().max(500).nullable(),
  wildcard: z.boolean(),
});
export type CookieDatabaseEntry = z.infer<typeof cookieDatabaseEntry>;

export const cookieDatabaseSource = z.object({
  name: z.string(),
  repository: z.string(),
  file: z.string(),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  commitDate: z.string().nullable(),
  licence: z.string(),
  changes: z.string(),
});
export type CookieDatabaseSource = z.infer<typeof cookieDatabaseSource>;

export const cookieDatabase = z.object({
  source: cookieDatabaseSource,
  entries: z.array(cookieDatabaseEntry).max(100_000),
});
export type CookieDatabase = z.infer<typeof cookieDatabase>;

export const cookieDatabaseFileUrl = new URL('./open-cookie-database.json', import.meta.url);

/** Reads and validates the checked-in JSON (or another file of the same shape). */
export function readCookieDatabase(file: URL | string = cookieDatabaseFileUrl): CookieDatabase {
  return cookieDatabase.parse(JSON.parse(readFileSync(file, 'utf8')));
}
