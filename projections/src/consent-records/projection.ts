// Consent records: one row per consent choice with everything the ledger recorded about it, for
// recent activity, export and proof. Written with one insert per batch; a replayed event is a
// conflict on its event id and changes nothing.
import { grantedList, repairedInstant } from '@consentry/events';
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export const consentRecordsProjection: Projection = {
  name: 'consent-records',
  canHandle: ['ConsentGiven', 'ConsentDeclined'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    const rows: string[] = [];
    for (const event of events) {
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
    if (rows.length === 0) return;
    await tx.query({
      name: 'consent-records-insert',
      text: `INSERT INTO consent_records
             SELECT * FROM jsonb_populate_recordset(NULL::consent_records, $1::jsonb)
             ON CONFLICT (event_id) DO NOTHING`,
      values: [`[${rows.join(',')}]`],
    });
  },

  tables: ['consent_records'],

  async purged(removed: readonly StoredEvent[], _purgeEventId: string, tx: DbTransaction): Promise<void> {
    await tx.query({
      name: 'consent-records-purge',
      text: 'DELETE FROM consent_records WHERE event_id = ANY($1::uuid[])',
      values: [removed.map((event) => event.eventId)],
    });
  },

  async rewritten(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
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
