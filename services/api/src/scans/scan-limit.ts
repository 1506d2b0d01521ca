// How many scans an owner may have waiting or running at once (the queue is shared by every owner:
// docs/scanner.md, "Sharing the runners"). Checked in the transaction that queues the scan, after
// the other queuings of the same owner, so two requests at once cannot both slip under the limit.
import type { DbTransaction, InlineHandler, StoredEvent } from '@consentry/infra';
import { ApiError } from '../errors';

/** Scans an owner may have queued or running (asked for through the api; scheduled ones do not count). */
export const maxOpenScansPerOwner = 3;

export const scanQueueFull = () =>
  new ApiError(
    429,
    'SCAN_QUEUE_FULL',
    `You already have ${maxOpenScansPerOwner} scans waiting or running; wait for one to finish, then start this one.`,
  );

/**
 * Runs in the append's transaction before the scans projection: waits for any other queuing of the
 * same owner's scans (a transaction-scoped advisory lock), then counts what has committed.
 */
export const scanLimitGuard: InlineHandler = {
  name: 'scan-limit-guard',
  canHandle: ['ScanRequested'],
  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      if (event.type !== 'ScanRequested' || event.data.trigger !== 'owner') continue;
      const { rows: owners } = await tx.query<{ owner_id: string }>({
        name: 'scan-limit-owner',
        text: 'SELECT owner_id FROM websites WHERE id = $1',
        values: [event.data.websiteId],
      });
      const ownerId = owners[0]?.owner_id;
      if (!ownerId) continue;
      await tx.query({ name: 'lock-owner-scans', text: "SELECT pg_advisory_xact_lock(hashtextextended('scan-limit:' || $1, 0))", values: [ownerId] });
      const { rows } = await tx.query<{ open: number; this_website: boolean | null }>({
        name: 'count-owner-open-scans',
        text: `SELECT count(*) FILTER (WHERE s.trigger = 'owner')::int AS open, bool_or(s.website_id = $2) AS this_website
                 FROM scans s JOIN websites w ON w.id = s.website_id
                WHERE w.owner_id = $1 AND s.status IN ('queued', 'running')`,
        values: [ownerId, event.data.websiteId],
      });
      // A website with a scan open is refused for that (409 SCAN_IN_PROGRESS), the more useful answer.
      if (!rows[0]?.this_website && (rows[0]?.open ?? 0) >= maxOpenScansPerOwner) throw scanQueueFull();
    }
  },
};
