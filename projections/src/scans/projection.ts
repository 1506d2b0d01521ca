// Scans: each scan's request, state and result, and the owner's purpose assignments, kept inline (same
// transaction as the append) so a requested scan is in the queue the moment the request is answered,
// and a finished one shows at once. The runner's progress columns are written by the runner itself.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export const scansProjection: Projection = {
  name: 'scans',
  canHandle: ['ScanRequested', 'ScanCompleted', 'ScanFailed', 'ItemPurposeAssigned'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      switch (event.type) {
        case 'ScanRequested': {
          const { scanId, websiteId, trigger, requestedBy, maxPages, requestedAt } = event.data;
          await tx.query({
            name: 'scans-request',
            text: `INSERT INTO scans (scan_id, website_id, trigger, requested_by, max_pages, status, requested_at)
                   VALUES ($1, $2, $3, $4, $5, 'queued', $6) ON CONFLICT (scan_id) DO NOTHING`,
            values: [scanId, websiteId, trigger, requestedBy, maxPages, requestedAt],
          });
          break;
        }
        case 'ScanCompleted': {
          const { scanId, startedAt, completedAt, pagesScanned, truncated, items, findings } = event.data;
          await tx.query({
            name: 'scans-complete',
            text: `UPDATE scans SET status = 'completed', started_at = $2, completed_at = $3, pages_scanned = $4,
                     truncated = $5, items = $6::jsonb, findings = $7::jsonb, finding_count = $8, current_url = NULL
                   WHERE scan_id = $1`,
            values: [scanId, startedAt, completedAt, pagesScanned, truncated, JSON.stringify(items), JSON.stringify(findings), findings.length],
          });
          break;
        }
        case 'ScanFailed': {
          const { scanId, reason, failedAt } = event.data;
          await tx.query({
            name: 'scans-fail',
            text: `UPDATE scans SET status = 'failed', failure_reason = $2, completed_at = $3, current_url = NULL WHERE scan_id = $1`,
            values: [scanId, reason, failedAt],
          });
          break;
        }
        case 'ItemPurposeAssigned': {
          const { websiteId, kind, name, purpose, assignedBy, assignedAt } = event.data;
          await tx.query(
            purpose === null
              ? { name: 'scans-unassign', text: 'DELETE FROM scan_assignments WHERE website_id = $1 AND kind = $2 AND name = $3', values: [websiteId, kind, name] }
              : {
                  name: 'scans-assign',
                  text: `INSERT INTO scan_assignments (website_id, kind, name, purpose, assigned_by, assigned_at)
                         VALUES ($1, $2, $3, $4, $5, $6)
                         ON CONFLICT (website_id, kind, name) DO UPDATE SET purpose = $4, assigned_by = $5, assigned_at = $6`,
                  values: [websiteId, kind, name, purpose, assignedBy, assignedAt],
                },
          );
          break;
        }
        default:
          break;
      }
    }
  },

  tables: ['scans', 'scan_assignments'],
};
