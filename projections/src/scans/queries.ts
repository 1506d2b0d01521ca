// Reads of the scans read model, and the queue operations of the scan runner (claim the oldest queued
// scan, report progress): one query per function, named for the logs.
import type { ScanFinding, ScannedItem, ScannedPurpose, StorageKind } from '@consentry/events';
import type { Queryable } from '@consentry/infra';

export type ScanStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface ScanSummary {
  readonly scanId: string;
  readonly websiteId: string;
  readonly trigger: 'owner' | 'schedule' | 'cli';
  readonly requestedBy: string | null;
  readonly maxPages: number;
  readonly status: ScanStatus;
  readonly requestedAt: string;
  readonly startedAt: string | null;
  readonly completedAt: string | null;
  readonly pagesScanned: number | null;
  readonly truncated: boolean | null;
  readonly failureReason: string | null;
  readonly findingCount: number;
  /** While running: pages done of those planned, and the page being visited. */
  readonly progress: { readonly pagesDone: number; readonly pagesPlanned: number; readonly currentUrl: string | null };
}

export interface ScanReport extends ScanSummary {
  readonly items: readonly ScannedItem[];
  readonly findings: readonly ScanFinding[];
}

interface ScanRow {
  scan_id: string;
  website_id: string;
  trigger: ScanSummary['trigger'];
  requested_by: string | null;
  max_pages: number;
  status: ScanStatus;
  requested_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  pages_scanned: number | null;
  truncated: boolean | null;
  failure_reason: string | null;
  finding_count: number;
  pages_done: number;
  pages_planned: number;
  current_url: string | null;
  items?: ScannedItem[] | null;
  findings?: ScanFinding[] | null;
}

const summaryColumns = `scan_id, website_id, trigger, requested_by, max_pages, status, requested_at, started_at, completed_at,
  pages_scanned, truncated, failure_reason, finding_count, pages_done, pages_planned, current_url`;

const toSummary = (row: ScanRow): ScanSummary => ({
  scanId: row.scan_id,
  websiteId: row.website_id,
  trigger: row.trigger,
  requestedBy: row.requested_by,
  maxPages: row.max_pages,
  status: row.status,
  requestedAt: row.requested_at.toISOString(),
  startedAt: row.started_at?.toISOString() ?? null,
  completedAt: row.completed_at?.toISOString() ?? null,
  pagesScanned: row.pages_scanned,
  truncated: row.truncated,
  failureReason: row.failure_reason,
  findingCount: row.finding_count,
  progress: { pagesDone: row.pages_done, pagesPlanned: row.pages_planned, currentUrl: row.current_url },
});

/** A website's scans, newest first. */
export async function listScans(db: Queryable, websiteId: string, limit = 50): Promise<ScanSummary[]> {
  const { rows } = await db.query<ScanRow>({
    name: 'list-scans',
    text: `SELECT ${summaryColumns} FROM scans WHERE website_id = $1 ORDER BY requested_at DESC, scan_id LIMIT $2`,
    values: [websiteId, limit],
  });
  return rows.map(toSummary);
}

/** One scan with its items and findings; null when there is none. */
export async function getScanReport(db: Queryable, scanId: string): Promise<ScanReport | null> {
  const { rows } = await db.query<ScanRow>({
    name: 'get-scan-report',
    text: `SELECT ${summaryColumns}, items, findings FROM scans WHERE scan_id = $1`,
    values: [scanId],
  });
  const row = rows[0];
  return row ? { ...toSummary(row), items: row.items ?? [], findings: row.findings ?? [] } : null;
}

/**
 * Whether `error` is the refusal of a second open scan for a website (the unique partial index
 * scans_one_open): the caller answers "already waiting or running" rather than failing.
 */
export function isOpenScanConflict(error: unknown): boolean {
  const pgError = error as { code?: unknown; constraint?: unknown } | null;
  return typeof pgError === 'object' && pgError !== null && pgError.code === '23505' && pgError.constraint === 'scans_one_open';
}

/** Whether the website has a scan waiting or running (one at a time per website). */
export async function findOpenScan(db: Queryable, websiteId: string): Promise<ScanSummary | null> {
  const { rows } = await db.query<ScanRow>({
    name: 'find-open-scan',
    text: `SELECT ${summaryColumns} FROM scans WHERE website_id = $1 AND status IN ('queued', 'running') ORDER BY requested_at LIMIT 1`,
    values: [websiteId],
  });
  return rows[0] ? toSummary(rows[0]) : null;
}

/**
 * Claims the oldest queued scan for `runner` (one runner gets each scan: SKIP LOCKED), or a running
 * one whose runner went quiet for `staleAfterMs` (it died); null when there is nothing to do.
 */
export async function claimNextScan(db: Queryable, runner: string, now: Date, staleAfterMs: number): Promise<ScanSummary | null> {
  const { rows } = await db.query<ScanRow>({
    name: 'claim-next-scan',
    text: `UPDATE scans SET status = 'running', claimed_by = $1, claimed_at = $2, pages_done = 0, pages_planned = 0, current_url = NULL
            WHERE scan_id = (
              SELECT scan_id FROM scans
               WHERE status = 'queued' OR (status = 'running' AND claimed_at < $2::timestamptz - make_interval(secs => $3::float8 / 1000))
               ORDER BY requested_at LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING ${summaryColumns}`,
    values: [runner, now, staleAfterMs],
  });
  return rows[0] ? toSummary(rows[0]) : null;
}

/** The runner's progress (and its heartbeat: a claim is kept alive by reporting). */
export async function reportScanProgress(
  db: Queryable,
  scanId: string,
  runner: string,
  progress: { pagesDone: number; pagesPlanned: number; currentUrl: string | null },
  now: Date,
): Promise<void> {
  await db.query({
    name: 'report-scan-progress',
    text: `UPDATE scans SET pages_done = $3, pages_planned = $4, current_url = $5, claimed_at = $6
            WHERE scan_id = $1 AND claimed_by = $2 AND status = 'running'`,
    values: [scanId, runner, progress.pagesDone, progress.pagesPlanned, progress.currentUrl, now],
  });
}

export interface ItemAssignment {
  readonly kind: StorageKind;
  readonly name: string;
  readonly purpose: ScannedPurpose;
}

/** The owner's purpose assignments for a website's items. */
export async function listItemAssignments(db: Queryable, websiteId: string): Promise<ItemAssignment[]> {
  const { rows } = await db.query<ItemAssignment>({
    name: 'list-item-assignments',
    text: 'SELECT kind, name, purpose FROM scan_assignments WHERE website_id = $1 ORDER BY kind, name',
    values: [websiteId],
  });
  return rows;
}

/** The items of the website's latest completed scan (none before its first). */
export async function getLatestScanItems(db: Queryable, websiteId: string): Promise<{ scanId: string; completedAt: string; items: ScannedItem[] } | null> {
  const { rows } = await db.query<{ scan_id: string; completed_at: Date; items: ScannedItem[] | null }>({
    name: 'get-latest-scan-items',
    text: `SELECT scan_id, completed_at, items FROM scans
            WHERE website_id = $1 AND status = 'completed' ORDER BY completed_at DESC LIMIT 1`,
    values: [websiteId],
  });
  const row = rows[0];
  return row ? { scanId: row.scan_id, completedAt: row.completed_at.toISOString(), items: row.items ?? [] } : null;
}

/** The items and findings of the website's latest completed scan (null before its first). */
export async function getLatestScanReport(
  db: Queryable,
  websiteId: string,
): Promise<{ scanId: string; completedAt: string; items: ScannedItem[]; findings: ScanFinding[] } | null> {
  const { rows } = await db.query<{ scan_id: string; completed_at: Date; items: ScannedItem[] | null; findings: ScanFinding[] | null }>({
    name: 'get-latest-scan-report',
    text: `SELECT scan_id, completed_at, items, findings FROM scans
            WHERE website_id = $1 AND status = 'completed' ORDER BY completed_at DESC LIMIT 1`,
    values: [websiteId],
  });
  const row = rows[0];
  return row ? { scanId: row.scan_id, completedAt: row.completed_at.toISOString(), items: row.items ?? [], findings: row.findings ?? [] } : null;
}

/**
 * Active websites due a scheduled scan: scans every `scan_interval_days` (not 0), that have received
 * at least one event (an installation: a site nobody embedded the snippet on is not scanned on its
 * own), with no scan requested within the interval and none open.
 */
export async function listWebsitesDueScan(db: Queryable, now: Date, limit = 100): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>({
    name: 'list-websites-due-scan',
    text: `SELECT w.id FROM websites w
            WHERE w.is_active AND w.scan_interval_days > 0
              AND EXISTS (SELECT 1 FROM website_activity a WHERE a.website_id = w.id)
              AND NOT EXISTS (
                SELECT 1 FROM scans s WHERE s.website_id = w.id
                   AND (s.status IN ('queued', 'running') OR s.requested_at > $1::timestamptz - make_interval(days => w.scan_interval_days)))
            ORDER BY w.id LIMIT $2`,
    values: [now, limit],
  });
  return rows.map((row) => row.id);
}

/** The findings of the completed scan before `scanId` of the same website (null when it is the first). */
export async function getPreviousScanFindings(db: Queryable, websiteId: string, scanId: string): Promise<ScanFinding[] | null> {
  const { rows } = await db.query<{ findings: ScanFinding[] | null }>({
    name: 'get-previous-scan-findings',
    text: `SELECT findings FROM scans
            WHERE website_id = $1 AND status = 'completed' AND scan_id <> $2
              AND completed_at <= (SELECT completed_at FROM scans WHERE scan_id = $2)
            ORDER BY completed_at DESC LIMIT 1`,
    values: [websiteId, scanId],
  });
  return rows[0] ? (rows[0].findings ?? []) : null;
}
