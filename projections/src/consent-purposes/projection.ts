// The consent-purposes projection (async): per website, day and method, how many choices were made
// and how often each optional purpose was offered and granted — acceptance per purpose, and the
// split between Accept All, Reject All and choices made purpose by purpose. Anonymous counts only.
// Days are UTC days of the server's receive time, as in consent stats, so totals agree day for day.
import { optionalPurposes, type PurgedPurposeCounts } from '@consentry/events';
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import { utcDayOf } from '../consent-stats/projection';
import { consumePurgeMark, markPurgeCounted, type Projection } from '../projection';

interface PurposeCounts extends PurgedPurposeCounts {
  readonly websiteId: string;
}

/** Sums counts per website, day and method. */
class PurposeCounter {
  private readonly rows = new Map<string, PurposeCounts>();

  add(websiteId: string, counts: PurgedPurposeCounts): void {
    const key = `${websiteId}|${counts.day}|${counts.method}`;
    const row = this.rows.get(key);
    if (!row) {
      this.rows.set(key, { websiteId, ...counts, offered: { ...counts.offered }, granted: { ...counts.granted } });
      return;
    }
    row.choices += counts.choices;
    for (const purpose of optionalPurposes) {
      row.offered[purpose] += counts.offered[purpose];
      row.granted[purpose] += counts.granted[purpose];
    }
  }

  addChoice(event: Extract<StoredEvent, { type: 'ConsentGiven' | 'ConsentDeclined' }>): void {
    const { websiteId, method, offered, purposes, receivedAt } = event.data;
    const flag = (on: boolean) => (on ? 1 : 0);
    this.add(websiteId, {
      day: utcDayOf(receivedAt),
      method,
      choices: 1,
      offered: {
        preferences: flag(offered.includes('preferences')),
        analytics: flag(offered.includes('analytics')),
        marketing: flag(offered.includes('marketing')),
        identification: flag(offered.includes('identification')),
      },
      granted: {
        preferences: flag(purposes.preferences),
        analytics: flag(purposes.analytics),
        marketing: flag(purposes.marketing),
        identification: flag(purposes.identification),
      },
    });
  }

  result(): PurposeCounts[] {
    return [...this.rows.values()];
  }
}

/** What a purge records of the consents it removes (EventsPurged.purposes). */
export function foldConsentPurposes(events: readonly StoredEvent[]): PurgedPurposeCounts[] {
  const counts = new PurposeCounter();
  for (const event of events) {
    if (event.type === 'ConsentGiven' || event.type === 'ConsentDeclined') counts.addChoice(event);
  }
  return counts.result().map(({ websiteId: _websiteId, ...row }) => row);
}

const columns = optionalPurposes.flatMap((purpose) => [`${purpose}_offered`, `${purpose}_granted`]);

export const consentPurposesProjection: Projection = {
  name: 'consent-purposes',
  partitionedByWebsite: true,
  canHandle: ['ConsentGiven', 'ConsentDeclined', 'EventsPurged'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    const counts = new PurposeCounter();
    for (const event of events) {
      if (event.type === 'ConsentGiven' || event.type === 'ConsentDeclined') counts.addChoice(event);
      else if (event.type === 'EventsPurged' && !(await consumePurgeMark(tx, 'consent_purposes_purges', event.eventId))) {
        // The removed consents were never counted here (a replay after the purge): count their summary.
        for (const row of event.data.purposes) counts.add(event.data.websiteId, row);
      }
    }
    const rows = counts.result();
    if (rows.length === 0) return;
    await tx.query({
      name: 'consent-purposes-add-daily-counts',
      text: `INSERT INTO consent_purposes_daily (website_id, day, method, choices, ${columns.join(', ')})
             SELECT * FROM unnest($1::uuid[], $2::date[], $3::text[], $4::int8[], ${columns.map((_, index) => `$${index + 5}::int8[]`).join(', ')})
             ON CONFLICT (website_id, day, method) DO UPDATE SET
               choices = consent_purposes_daily.choices + EXCLUDED.choices,
               ${columns.map((column) => `${column} = consent_purposes_daily.${column} + EXCLUDED.${column}`).join(',\n               ')}`,
      values: [
        rows.map((row) => row.websiteId),
        rows.map((row) => row.day),
        rows.map((row) => row.method),
        rows.map((row) => row.choices),
        ...optionalPurposes.flatMap((purpose) => [rows.map((row) => row.offered[purpose]), rows.map((row) => row.granted[purpose])]),
      ],
    });
  },

  tables: ['consent_purposes_daily', 'consent_purposes_purges'],

  // The removed consents were counted: their summary is already in the daily counts.
  async purged(_removed: readonly StoredEvent[], purgeEventId: string, tx: DbTransaction): Promise<void> {
    await markPurgeCounted(tx, 'consent_purposes_purges', purgeEventId);
  },
};
