// The consent-dimensions projection (async): anonymous counts the recommendations need — choices per
// website per day per device class and source, and banner impressions per website per day per
// position, theme and device class. No visitor identifier is read or stored. Days are UTC days of the
// server's receive time, as in consent stats, so totals agree with them day for day.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import { utcDayOf } from '../consent-stats/projection';
import type { Projection } from '../projection';

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

export const consentDimensionsProjection: Projection = {
  name: 'consent-dimensions',
  canHandle: inputTypes,

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    const choices = new Map<string, ChoiceCounts>();
    const impressions = new Map<string, ImpressionCounts>();
    for (const event of events) {
      if (!isInput(event)) continue;
      switch (event.type) {
        case 'ConsentGiven':
        case 'ConsentDeclined': {
          const { websiteId, deviceClass, source, receivedAt } = event.data;
          const day = utcDayOf(receivedAt);
          const key = `${websiteId}|${day}|${deviceClass}|${source}`;
          let row = choices.get(key);
          if (!row) choices.set(key, (row = { websiteId, day, deviceClass, source, accepted: 0, declined: 0 }));
          if (event.type === 'ConsentGiven') row.accepted++;
          else row.declined++;
          break;
        }
        case 'BannerShown': {
          const { websiteId, position, theme, deviceClass, receivedAt } = event.data;
          const day = utcDayOf(receivedAt);
          const key = `${websiteId}|${day}|${position}|${theme}|${deviceClass}`;
          const row = impressions.get(key);
          if (row) row.impressions++;
          else impressions.set(key, { websiteId, day, position, theme, deviceClass, impressions: 1 });
          break;
        }
        default: {
          const unhandled: never = event;
          throw new Error(`consent-dimensions: unhandled event ${(unhandled as StoredEvent).type}`);
        }
      }
    }
    if (choices.size > 0) {
      const rows = [...choices.values()];
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
    if (impressions.size > 0) {
      const rows = [...impressions.values()];
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

  tables: ['consent_dimensions_daily', 'banner_impressions_daily'],
};
