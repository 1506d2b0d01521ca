// Gap-safe readers see an event only once every older write transaction of the database has ended
// (events_read_horizon()), so a test that appends and then reads or replays must first wait until
// what it appended is readable: a transaction of the test's own app or projector may still be open.
import type { Queryable } from '../db/pool';
import { readCommittedHead } from '../event-store/read';
import { waitFor } from './wait-for';

/** Resolves once every event committed so far in this database is visible to gap-safe readers. */
export async function waitForLogVisible(db: Queryable, timeoutMs = 30_000): Promise<void> {
  const { rows } = await db.query<{ transaction_id: number; position: number }>(
    'SELECT transaction_id, position FROM events ORDER BY transaction_id DESC, position DESC LIMIT 1',
  );
  const last = rows[0];
  if (!last) return;
  await waitFor(
    async () => {
      const head = await readCommittedHead(db);
      return head !== null && (head.transactionId > last.transaction_id || (head.transactionId === last.transaction_id && head.position >= last.position));
    },
    { timeoutMs, intervalMs: 20, message: 'appended events to become visible to gap-safe readers' },
  );
}
