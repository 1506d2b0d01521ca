// Where a value is stored: every table of the database (public schema), searched row by row as
// text. Tests use it to prove personal data is gone (an erasure) or never arrived (identification
// the visitor did not allow).
import type { Queryable } from '../db/pool';

/** The tables other than `exclude` whose rows, as text, contain `needle`, with the count of such rows. */
export async function tablesHolding(db: Queryable, needle: string, exclude: readonly string[] = []): Promise<Record<string, number>> {
  const { rows: tables } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const found: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    if (exclude.includes(table)) continue;
    const { rows } = await db.query<{ count: number }>(`SELECT count(*)::int8 AS count FROM "${table}" AS t WHERE t::text LIKE '%' || $1 || '%'`, [needle]);
    if (rows[0]!.count > 0) found[table] = rows[0]!.count;
  }
  return found;
}
