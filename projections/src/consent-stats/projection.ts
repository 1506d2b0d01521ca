// Consent stats: accepted and declined counts per website per day (UTC day of the server's receive
// time). Totals, declined counts and the consent rate of any range are sums over these rows, so
// dashboards never scan the log. A batch is folded in memory first, then written with one upsert.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import { consumePurgeMark, markPurgeCounted, type Projection } from '../projection';

interface DayCounts {
  websiteId: string;
  day: string;
  accepted: number;
  declined: number;
}

/** `YYYY-MM-DD` in UTC; the common `…Z` form needs no date parsing on this hot path. */
export function utcDayOf(isoDateTime: string): string {
  return isoDateTime.endsWith('Z') ? isoDateTime.slice(0, 10) : new Date(isoDateTime).toISOString().slice(0, 10);
}

export const consentStatsProjection: Projection = {
  name: 'consent-stats',
  partitionedByWebsite: true,
  canHandle: ['ConsentGiven', 'ConsentDeclined', 'EventsPurged'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    const counts = new Map<string, DayCounts>();
    const add = (websiteId: string, day: string, accepted: number, declined: number) => {
      const key = `${websiteId}/${day}`;
      let row = counts.get(key);
      if (!row) counts.set(key, (row = { websiteId, day, accepted: 0, declined: 0 }));
      row.accepted += accepted;
      row.declined += declined;
    };
    for (const event of events) {
      if (event.type === 'ConsentGiven' || event.type === 'ConsentDeclined') {
        const accepted = event.type === 'ConsentGiven' ? 1 : 0;
        add(event.data.websiteId, utcDayOf(event.data.receivedAt), accepted, 1 - accepted);
      } else if (event.type === 'EventsPurged' && !(await consumePurgeMark(tx, 'consent_stats_purges', event.eventId))) {
        // The removed consents were never counted here (a replay after the purge): count their summary.
        for (const row of event.data.consents) add(event.data.websiteId, row.day, row.accepted, row.declined);
      }
    }
    if (counts.size === 0) return;
    const rows = [...counts.values()];
    await tx.query({
      name: 'consent-stats-add-daily-counts',
      text: `INSERT INTO consent_stats_daily (website_id, day, accepted, declined)
             SELECT * FROM unnest($1::uuid[], $2::date[], $3::int8[], $4::int8[])
             ON CONFLICT (website_id, day) DO UPDATE
               SET accepted = consent_stats_daily.accepted + EXCLUDED.accepted,
                   declined = consent_stats_daily.declined + EXCLUDED.declined`,
      values: [
        rows.map((row) => row.websiteId),
        rows.map((row) => row.day),
        rows.map((row) => row.accepted),
        rows.map((row) => row.declined),
      ],
    });
  },

  tables: ['consent_stats_daily', 'consent_stats_purges'],

  // The removed consents were counted: their summary is already in the daily counts.
  async purged(_removed: readonly StoredEvent[], purgeEventId: string, tx: DbTransaction): Promise<void> {
    await markPurgeCounted(tx, 'consent_stats_purges', purgeEventId);
  },
};
