// The visitor's latest consent choice, read from the log (not a read model), and the identification
// rule of @consentry/events applied to it. Ingest asks before it records a VisitorIdentified (inside
// the stream's decision lock, so no withdrawal can commit in between); the enrichment worker asks
// again before each call to a provider (docs/identification.md, "The rule that keeps it lawful").
import { consentStreamId, identificationVerdict, type IdentificationVerdict } from '@consentry/events';
import type { Queryable } from '../db/pool';
import { eventColumns, toStoredEvent, type EventRow } from './rows';
import type { StoredEventOf } from './types';

export type ConsentChoice = StoredEventOf<'ConsentGiven'> | StoredEventOf<'ConsentDeclined'>;

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

export async function latestConsentChoice(db: Queryable, websiteId: string, visitorId: string): Promise<ConsentChoice | null> {
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

/** May the visitor be identified, relying on the consent event named? The log's answer now. */
export async function checkIdentificationAllowed(
  db: Queryable,
  request: { readonly websiteId: string; readonly visitorId: string; readonly consentEventId: string },
): Promise<IdentificationVerdict> {
  return identificationVerdict(await latestConsentChoice(db, request.websiteId, request.visitorId), request.consentEventId);
}
