// Exports of personal data (who exported which website's consent records, in which format, how
// many rows, when), inline so the Recent Exports list shows an export as soon as it finished.
import type { DbTransaction, Queryable, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export const exportsProjection: Projection = {
  name: 'exports',
  canHandle: ['ConsentsExported'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      if (event.type !== 'ConsentsExported') continue;
      const { exportId, userId, websiteId, format, rowCount, exportedAt } = event.data;
      // Recent Exports is an owner's list; an admin's export without an owner account is audited by
      // its event in the ledger alone.
      if (userId === null) continue;
      await tx.query({
        name: 'exports-record',
        text: `INSERT INTO consent_exports (export_id, user_id, website_id, format, row_count, exported_at)
               VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (export_id) DO NOTHING`,
        values: [exportId, userId, websiteId, format, rowCount, exportedAt],
      });
    }
  },

  tables: ['consent_exports'],
};

export interface ExportRecord {
  readonly id: string;
  readonly websiteId: string | null;
  readonly format: 'csv' | 'json';
  readonly rowCount: number;
  readonly exportedAt: string;
}

export async function listRecentExports(db: Queryable, userId: string, limit = 10): Promise<ExportRecord[]> {
  const { rows } = await db.query<{ export_id: string; website_id: string | null; format: 'csv' | 'json'; row_count: number; exported_at: Date }>({
    name: 'list-recent-exports',
    text: `SELECT export_id, website_id, format, row_count, exported_at FROM consent_exports
            WHERE user_id = $1 ORDER BY exported_at DESC, export_id DESC LIMIT $2`,
    values: [userId, limit],
  });
  return rows.map((row) => ({ id: row.export_id, websiteId: row.website_id, format: row.format, rowCount: row.row_count, exportedAt: row.exported_at.toISOString() }));
}
