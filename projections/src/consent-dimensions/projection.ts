// The consent-dimensions projection (async): anonymous counts the recommendations need — choices per
// website per day per device class and source, and banner impressions per website per day per
// position, theme and device class. No visitor identifier is read or stored. Days are UTC days of the
// server's receive time, as in consent stats, so totals agree with them day for day.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import { utcDayOf } from '../consent-stats/projection';
import { consumePurgeMark, markPurgeCounted, type Projection } from '../projection';

const inputTypes = ['ConsentGiven', 'ConsentDeclined', 'BannerShown'] as const satisfies readonly StoredEvent['type'][];
type InputEvent = Extract<StoredEvent, { type: (typeof inputTypes)[number] }>;
const isInput = (event: StoredEvent): event is InputEvent => (inputTypes as readonly string[]).includes(event.type);

interface ChoiceCounts {
  websiteId: string;
  day: string;
  deviceClass: string;
  source: string;
  accepted: number;
  declined: number;
}

interface ImpressionCounts {
  websiteId: string;
  day: string;
  position: string;
  theme: string;
  deviceClass: string;
  impressions: number;
}

export interface DimensionCounts {
  readonly choices: ChoiceCounts[];
  readonly impressions: ImpressionCounts[];
}

/**
 * The counts a batch adds: its choices and impressions, plus the summaries of purges this read model
 * has not counted yet. A purge marks the summary as counted in its own transaction (the events it
 * removed had been counted), so only a read model rebuilt after the purge adds it.
 */
async function countsToAdd(events: readonly StoredEvent[], tx: DbTransaction): Promise<DimensionCounts> {
  const counts = new DimensionCounter();
  for (const event of events) {
    if (isInput(event)) counts.add(event);
    else if (event.type === 'EventsPurged' && !(await consumePurgeMark(tx, 'consent_dimensions_purges', event.eventId))) {
      const { websiteId } = event.data;
      for (const row of event.data.consents) counts.addChoices({ websiteId, ...row });
      for (const row of event.data.impressions) counts.addImpressions({ websiteId, ...row });
    }
  }
  return counts.result();
}

/** Sums choices and impressions per key. */
class DimensionCounter {
  private readonly choices = new Map<string, ChoiceCounts>();
  private readonly impressions = new Map<string, ImpressionCounts>();

  addChoices(counts: ChoiceCounts): void {
    const key = `${counts.websiteId}|${counts.day}|${counts.deviceClass}|${counts.source}`;
    const row = this.choices.get(key);
    if (!row) this.choices.set(key, { ...counts });
    else {
      row.accepted += counts.accepted;
      row.declined += counts.declined;
    }
  }

  addImpressions(counts: ImpressionCounts): void {
    const key = `${counts.websiteId}|${counts.day}|${counts.position}|${counts.theme}|${counts.deviceClass}`;
    const row = this.impressions.get(key);
    if (!row) this.impressions.set(key, { ...counts });
    else row.impressions += counts.impressions;
  }

  add(event: InputEvent): void {
    switch (event.type) {
      case 'ConsentGiven':
      case 'ConsentDeclined': {
        const { websiteId, deviceClass, source, receivedAt } = event.data;
        const accepted = event.type === 'ConsentGiven' ? 1 : 0;
        this.addChoices({ websiteId, day: utcDayOf(receivedAt), deviceClass, source, accepted, declined: 1 - accepted });
        break;
      }
      case 'BannerShown': {
        const { websiteId, position, theme, deviceClass, receivedAt } = event.data;
        this.addImpressions({ websiteId, day: utcDayOf(receivedAt), position, theme, deviceClass, impressions: 1 });
        break;
      }
      default: {
        const unhandled: never = event;
        throw new Error(`consent-dimensions: unhandled event ${(unhandled as StoredEvent).type}`);
      }
    }
  }

  result(): DimensionCounts {
    return { choices: [...this.choices.values()], impressions: [...this.impressions.values()] };
  }
}

/** Folds choices and impressions into counts per key (also what a purge records of the events it removes). */
export function foldConsentDimensions(events: readonly StoredEvent[]): DimensionCounts {
  const counts = new DimensionCounter();
  for (const event of events) if (isInput(event)) counts.add(event);
  return counts.result();
}

export const consentDimensionsProjection: Projection = {
  name: 'consent-dimensions',
  partitionedByWebsite: true,
  canHandle: [...inputTypes, 'EventsPurged'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    const { choices, impressions } = await countsToAdd(events, tx);
    if (choices.length > 0) {
      const rows = choices;
      await tx.query({
        name: 'consent-dimensions-add-choices',
        text: `INSERT INTO consent_dimensions_daily (website_id, day, device_class, source, accepted, declined)
               SELECT * FROM unnest($1::uuid[], $2::date[], $3::text[], $4::text[], $5::int8[], $6::int8[])
               ON CONFLICT (website_id, day, device_class, source) DO UPDATE
                 SET accepted = consent_dimensions_daily.accepted + EXCLUDED.accepted,
                     declined = consent_dimensions_daily.declined + EXCLUDED.declined`,
        values: [
          rows.map((row) => row.websiteId),
          rows.map((row) => row.day),
          rows.map((row) => row.deviceClass),
          rows.map((row) => row.source),
          rows.map((row) => row.accepted),
          rows.map((row) => row.declined),
        ],
      });
    }
    if (impressions.length > 0) {
      const rows = impressions;
      await tx.query({
        name: 'consent-dimensions-add-impressions',
        text: `INSERT INTO banner_impressions_daily (website_id, day, position, theme, device_class, impressions)
               SELECT * FROM unnest($1::uuid[], $2::date[], $3::text[], $4::text[], $5::text[], $6::int8[])
               ON CONFLICT (website_id, day, position, theme, device_class) DO UPDATE
                 SET impressions = banner_impressions_daily.impressions + EXCLUDED.impressions`,
        values: [
          rows.map((row) => row.websiteId),
          rows.map((row) => row.day),
          rows.map((row) => row.position),
          rows.map((row) => row.theme),
          rows.map((row) => row.deviceClass),
          rows.map((row) => row.impressions),
        ],
      });
    }
  },

  tables: ['consent_dimensions_daily', 'banner_impressions_daily', 'consent_dimensions_purges'],

  async purged(_removed: readonly StoredEvent[], purgeEventId: string, tx: DbTransaction): Promise<void> {
    await markPurgeCounted(tx, 'consent_dimensions_purges', purgeEventId);
  },
};
