// Website activity: the last time the ledger received any event from each website, so
// verification can say "last event received …" and recommendations can spot a broken install.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export const websiteActivityProjection: Projection = {
  name: 'website-activity',
  partitionedByWebsite: true,
  canHandle: ['ConsentGiven', 'ConsentDeclined', 'BannerShown', 'PageViewed', 'PageHidden', 'EngagementRecorded'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    const latest = new Map<string, string>();
    for (const event of events) {
      if (!('receivedAt' in event.data) || !('websiteId' in event.data)) continue;
      const { websiteId, receivedAt } = event.data;
      const known = latest.get(websiteId);
      if (known === undefined || Date.parse(receivedAt) > Date.parse(known)) latest.set(websiteId, receivedAt);
    }
    if (latest.size === 0) return;
    await tx.query({
      name: 'website-activity-touch',
      text: `INSERT INTO website_activity (website_id, last_event_at)
             SELECT * FROM unnest($1::uuid[], $2::timestamptz[])
             ON CONFLICT (website_id) DO UPDATE
               SET last_event_at = greatest(website_activity.last_event_at, EXCLUDED.last_event_at)`,
      values: [[...latest.keys()], [...latest.values()]],
    });
  },

  tables: ['website_activity'],
};

export async function getLastEventAt(db: Pick<DbTransaction, 'query'>, websiteId: string): Promise<string | null> {
  const { rows } = await db.query<{ last_event_at: Date }>({
    name: 'get-website-last-event-at',
    text: 'SELECT last_event_at FROM website_activity WHERE website_id = $1',
    values: [websiteId],
  });
  return rows[0]?.last_event_at.toISOString() ?? null;
}
