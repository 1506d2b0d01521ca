// Where in the database a piece of text is stored: every table of every schema but PostgreSQL's own,
// each row read whole as text (so jsonb documents, arrays and every column are covered). What the
// identification tests and the e2e use to show that a refused visitor's email is nowhere.
import type { Queryable } from '@consentry/infra';

export interface TextFound {
  readonly table: string;
  readonly rows: number;
}

/** The tables (schema-qualified) whose rows contain `text`, compared case-insensitively; [] when none. */
export async function findTextAnywhere(db: Queryable, text: string): Promise<TextFound[]> {
  if (text.length === 0) throw new Error('findTextAnywhere needs some text to look for');
  const { rows: tables } = await db.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name
       FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
      ORDER BY 1, 2`,
  );
  const found: TextFound[] = [];
  for (const { schema, name } of tables) {
    const table = `${quoteIdentifier(schema)}.${quoteIdentifier(name)}`;
    // strpos on the lower-cased row text: no pattern characters to escape in what is looked for.
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} AS t WHERE strpos(lower(t::text), lower($1)) > 0`, [text]);
    if (rows[0]!.n > 0) found.push({ table: `${schema}.${name}`, rows: rows[0]!.n });
  }
  return found;
}

function quoteIdentifier(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
