// The scan queue's claim, fair across website owners: a runner takes the next scan of the owner who has
// waited longest since their last turn, owners with no scan running first, so one owner's many (or
// slow) scans never hold everyone else's. One statement: SKIP LOCKED, stale takeover, the turn kept.
// See docs/scanner.md, "Sharing the runners".
import type { Queryable } from '@consentry/infra';
import type { ScanSummary } from '@consentry/projections';

/** The queue's name in queue_turns (migration 024), whose tenants are the websites' owners. */
export const scanQueueName = 'scans';

export interface ClaimScanOptions {
  /** Names the runner in the scan's row (its progress is accepted from this runner only). */
  readonly runner: string;
  readonly now: Date;
  /** A running scan whose runner stayed quiet this long is taken over (the runner died). */
  readonly staleAfterMs: number;
  /**
   * Whether a scan of an owner who already has one running may be claimed. Such scans always come
   * last; false keeps this runner free for an owner with nothing running (a process with several
   * runners passes false for its last idle one).
   */
  readonly ownersRunningToo: boolean;
}

interface ClaimedRow {
  scan_id: string;
  website_id: string;
  trigger: ScanSummary['trigger'];
  requested_by: string | null;
  max_pages: number;
  requested_at: Date;
}

/**
 * Claims the next scan, or takes over a stale one; null when there is none to take. The order:
 * owners with no scan running before owners with one; then the owner whose last turn (queue_turns) is
 * oldest, owners never served first (round-robin across owners, whatever each has queued); then the
 * oldest request. A website without an owner (removed meanwhile) is its own tenant, so its scan is
 * still claimed, and fails saying so.
 */
export async function claimNextScanFairly(db: Queryable, options: ClaimScanOptions): Promise<ScanSummary | null> {
  const { rows } = await db.query<ClaimedRow>({
    name: 'claim-next-scan-fairly',
    text: `WITH live AS (
             SELECT DISTINCT coalesce(w.owner_id::text, r.website_id::text) AS tenant
               FROM scans r LEFT JOIN websites w ON w.id = r.website_id
              WHERE r.status = 'running' AND r.claimed_at >= $2::timestamptz - make_interval(secs => $3::float8 / 1000)
           ), next AS (
             SELECT s.scan_id, k.tenant
               FROM scans s
               LEFT JOIN websites w ON w.id = s.website_id
               CROSS JOIN LATERAL (SELECT coalesce(w.owner_id::text, s.website_id::text) AS tenant) k
               LEFT JOIN queue_turns t ON t.queue = $5 AND t.tenant = k.tenant
              WHERE (s.status = 'queued' OR (s.status = 'running' AND s.claimed_at < $2::timestamptz - make_interval(secs => $3::float8 / 1000)))
                AND ($4::boolean OR k.tenant NOT IN (SELECT tenant FROM live))
              ORDER BY k.tenant IN (SELECT tenant FROM live), t.last_turn_at NULLS FIRST, s.requested_at, s.scan_id
              LIMIT 1
              FOR UPDATE OF s SKIP LOCKED
           ), turn AS (
             INSERT INTO queue_turns AS q (queue, tenant, last_turn_at) SELECT $5, tenant, $2 FROM next
             ON CONFLICT (queue, tenant) DO UPDATE SET last_turn_at = greatest(q.last_turn_at, excluded.last_turn_at)
           )
           UPDATE scans s SET status = 'running', claimed_by = $1, claimed_at = $2, pages_done = 0, pages_planned = 0, current_url = NULL
             FROM next WHERE s.scan_id = next.scan_id
           RETURNING s.scan_id, s.website_id, s.trigger, s.requested_by, s.max_pages, s.requested_at`,
    values: [options.runner, options.now, options.staleAfterMs, options.ownersRunningToo, scanQueueName],
  });
  const row = rows[0];
  if (!row) return null;
  return {
    scanId: row.scan_id,
    websiteId: row.website_id,
    trigger: row.trigger,
    requestedBy: row.requested_by,
    maxPages: row.max_pages,
    status: 'running',
    requestedAt: row.requested_at.toISOString(),
    startedAt: null,
    completedAt: null,
    pagesScanned: null,
    truncated: null,
    failureReason: null,
    findingCount: 0,
    progress: { pagesDone: 0, pagesPlanned: 0, currentUrl: null },
  };
}

/**
 * Keeps a runner's claim alive while its scan runs, pages done or not: a page that never loads takes
 * its whole timeout and reports no progress, and a tarpit of them must not pass for a dead runner
 * (another runner would scan the same website twice).
 */
export async function keepScanClaim(db: Queryable, scanId: string, runner: string, now: Date): Promise<void> {
  await db.query({
    name: 'keep-scan-claim',
    text: `UPDATE scans SET claimed_at = greatest(claimed_at, $3) WHERE scan_id = $1 AND claimed_by = $2 AND status = 'running'`,
    values: [scanId, runner, now],
  });
}

/** Hands a scan back to the queue unfinished (its runner is stopping): the next runner starts it afresh, at once. */
export async function releaseScanClaim(db: Queryable, scanId: string, runner: string): Promise<void> {
  await db.query({
    name: 'release-scan-claim',
    text: `UPDATE scans SET status = 'queued', claimed_by = NULL, claimed_at = NULL, pages_done = 0, pages_planned = 0, current_url = NULL
            WHERE scan_id = $1 AND claimed_by = $2 AND status = 'running'`,
    values: [scanId, runner],
  });
}
