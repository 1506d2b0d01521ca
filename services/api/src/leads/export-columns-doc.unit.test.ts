// Keeps docs/identification.md true to the leads export: the columns it lists for
// `GET /api/leads/export.csv` are the header the product writes, in the same order.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { leadExportColumns } from './routes';

const doc = readFileSync(new URL('../../../../docs/identification.md', import.meta.url), 'utf8');

/** The first code span after the export's route in the doc: its column list (it may wrap lines). */
function documentedColumns(): string[] {
  const match = /`GET \/api\/leads\/export\.csv[^`]*`[^`]*?`([^`]+)`/.exec(doc);
  if (!match) throw new Error('docs/identification.md no longer documents GET /api/leads/export.csv with its columns');
  return match[1]!.split(',').map((column) => column.trim());
}

describe("docs/identification.md's leads export columns", () => {
  it('are the header the export writes, in its order', () => {
    expect(documentedColumns()).toEqual([...leadExportColumns]);
  });
});
