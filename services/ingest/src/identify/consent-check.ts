// May this visitor be identified now? The log answers, not a read model: the identify request names
// the consent event it relies on, and that event must be the visitor's latest choice — on whatever
// banner it was made — and allow it (docs/identification.md, "The rule that keeps it lawful").
// Ingest asks before it records a VisitorIdentified (inside the stream's decision lock, so no
// withdrawal can commit in between); the enrichment worker asks again before each call to a provider.
import { allowsIdentification, consentStreamId } from '@consentry/events';
import { eventColumns, toStoredEvent, type EventRow, type Queryable, type StoredEventOf } from '@consentry/infra';

export type IdentificationChoice = StoredEventOf<'ConsentGiven'> | StoredEventOf<'ConsentDeclined'>;

/**
 * The visitor's latest choice. The WHERE clause is the predicate of the partial index
 * events_consent_choices (migration 025) word for word, with constants rather than parameters, so
 * the planner can prove the index applies and walks it backwards from the stream's newest position:
 * one index probe, whatever the size of the log.
 */
export const latestChoiceSql = `SELECT ${eventColumns}
  FROM events
 WHERE stream_id = $1
   AND type IN ('ConsentGiven', 'ConsentDeclined')
 ORDER BY position DESC
 LIMIT 1`;

export async function latestChoice(db: Queryable, websiteId: string, visitorId: string): Promise<IdentificationChoice | null> {
  const { rows } = await db.query<EventRow>({
    name: 'latest-consent-choice',
    text: latestChoiceSql,
    values: [consentStreamId(websiteId, visitorId)],
  });
  if (!rows[0]) return null;
  // Upcast like every reader: a choice of an older version reads as the current schema says.
  const event = toStoredEvent(rows[0]);
  return event.type === 'ConsentGiven' || event.type === 'ConsentDeclined' ? event : null;
}

/**
 * Why identification is refused:
 * - `no_choice`: the visitor made no choice;
 * - `not_allowed`: their latest choice does not allow it (declined, the purpose switched off or not
 *   offered, or a region's default, which never identifies anyone);
 * - `not_latest_choice`: their latest choice allows it, but it is not the consent event named
 *   (unknown, another visitor's, or an earlier choice since replaced).
 */
export type IdentificationRefusal = 'no_choice' | 'not_allowed' | 'not_latest_choice';

export type IdentificationCheck =
  | { readonly allowed: true; readonly consentEventId: string }
  | { readonly allowed: false; readonly reason: IdentificationRefusal };

export async function checkIdentificationAllowed(
  db: Queryable,
  request: { readonly websiteId: string; readonly visitorId: string; readonly consentEventId: string },
): Promise<IdentificationCheck> {
  const latest = await latestChoice(db, request.websiteId, request.visitorId);
  if (!latest) return { allowed: false, reason: 'no_choice' };
  if (!allowsIdentification(latest.data)) return { allowed: false, reason: 'not_allowed' };
  if (latest.eventId !== request.consentEventId.toLowerCase()) return { allowed: false, reason: 'not_latest_choice' };
  return { allowed: true, consentEventId: latest.eventId };
}
