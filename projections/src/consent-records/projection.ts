// Consent records: one row per consent choice with everything the ledger recorded about it, for
// recent activity, export and proof. Written with one insert per batch; a replayed event is a
// conflict on its event id and changes nothing.
//
// The spec's `email` field is filled where it is known (docs/identification.md): a VisitorIdentified
// writes its email on the visitor's records received up to it, when the latest of those allows
// identification — so a visitor who never allowed it never has an email here, whatever arrives. An
// erasure (the identification's email nulled) empties the field again.
import { grantedList, repairedInstant } from '@consentry/events';
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export const consentRecordsProjection: Projection = {
  name: 'consent-records',
  partitionedByWebsite: true,
  canHandle: ['ConsentGiven', 'ConsentDeclined', 'VisitorIdentified'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    const rows: string[] = [];
    const identified: Array<Extract<StoredEvent, { type: 'VisitorIdentified' }>> = [];
    for (const event of events) {
      if (event.type === 'VisitorIdentified') {
        if (event.data.email !== null) identified.push(event);
        continue;
      }
      if (event.type !== 'ConsentGiven' && event.type !== 'ConsentDeclined') continue;
      const data = event.data;
      rows.push(
        JSON.stringify({
          event_id: event.eventId,
          website_id: data.websiteId,
          visitor_id: data.visitorId,
          choice: event.type === 'ConsentGiven' ? 'accepted' : 'declined',
          source: data.source,
          policy_version: data.policyVersion,
          received_at: data.receivedAt,
          // Logs written before the edge refused unstorable date-times may hold one (year 0000, +16:00).
          occurred_at: repairedInstant(data.occurredAt, data.receivedAt),
          ip_address: data.ipAddress,
          user_agent: data.userAgent,
          device_class: data.deviceClass,
          country: data.country,
          city: data.city,
          email: data.email,
          page_url: data.pageUrl,
          language: data.language,
          offered: data.offered,
          purposes: grantedList(data.purposes),
          method: data.method,
          rule: data.rule.rule,
          region: data.rule.region,
        }),
      );
    }
    if (rows.length > 0) {
      await tx.query({
        name: 'consent-records-insert',
        text: `INSERT INTO consent_records
               SELECT * FROM jsonb_populate_recordset(NULL::consent_records, $1::jsonb)
               ON CONFLICT (event_id) DO NOTHING`,
        values: [`[${rows.join(',')}]`],
      });
    }
    // One at a time, in log order: a later identification of the same visitor overwrites an earlier one.
    for (const { data } of identified) {
      await tx.query({
        name: 'consent-records-fill-email',
        text: `UPDATE consent_records SET email = $3
                WHERE website_id = $1 AND visitor_id = $2 AND received_at <= $4
                  AND (SELECT 'identification' = ANY(latest.purposes) AND latest.method IN ('accept_all', 'custom')
                         FROM consent_records AS latest
                        WHERE latest.website_id = $1 AND latest.visitor_id = $2 AND latest.received_at <= $4
                        ORDER BY latest.received_at DESC, latest.event_id DESC
                        LIMIT 1)`,
        values: [data.websiteId, data.visitorId, data.email, data.receivedAt],
      });
    }
  },

  tables: ['consent_records'],

  // A removed identification filled only records received before it, which the same purge removes.
  async purged(removed: readonly StoredEvent[], _purgeEventId: string, tx: DbTransaction): Promise<void> {
    await tx.query({
      // Unnamed: planned for its array each time (see analytics' load of visitors).
      text: 'DELETE FROM consent_records WHERE event_id = ANY($1::uuid[])',
      values: [removed.map((event) => event.eventId)],
    });
  },

  async rewritten(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      if (event.type === 'VisitorIdentified') {
        // An erased identification: the email it filled in goes (a replay would fill nothing).
        if (event.data.email === null) {
          await tx.query({
            name: 'consent-records-erase-email',
            text: 'UPDATE consent_records SET email = NULL WHERE website_id = $1 AND visitor_id = $2 AND email IS NOT NULL',
            values: [event.data.websiteId, event.data.visitorId],
          });
        }
        continue;
      }
      if (event.type !== 'ConsentGiven' && event.type !== 'ConsentDeclined') continue;
      const { ipAddress, userAgent, email, city } = event.data;
      await tx.query({
        name: 'consent-records-rewrite',
        text: 'UPDATE consent_records SET ip_address = $2, user_agent = $3, email = $4, city = $5 WHERE event_id = $1',
        values: [event.eventId, ipAddress, userAgent, email, city],
      });
    }
  },
};
