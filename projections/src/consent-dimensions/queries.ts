// Reads of the consent-dimensions read model: choices by device class and source, and banner
// impressions by position and theme, for one website over a range of UTC days.
import type { BannerPosition, BannerTheme, ConsentSource, DeviceClass } from '@consentry/events';
import type { Queryable } from '@consentry/infra';
import type { AnalyticsRange } from '../analytics/queries';

export interface ConsentDimensionCounts {
  readonly deviceClass: DeviceClass;
  readonly source: ConsentSource;
  readonly accepted: number;
  readonly declined: number;
}

/** Choices in the range per device class and source (only combinations that occur). */
export async function getConsentCountsByDimension(db: Queryable, range: AnalyticsRange): Promise<ConsentDimensionCounts[]> {
  const { rows } = await db.query<{ device_class: DeviceClass; source: ConsentSource; accepted: number; declined: number }>({
    name: 'get-consent-counts-by-dimension',
    text: `SELECT device_class, source, sum(accepted)::int8 AS accepted, sum(declined)::int8 AS declined
             FROM consent_dimensions_daily
            WHERE website_id = $1 AND day BETWEEN $2::date AND $3::date
            GROUP BY device_class, source
            ORDER BY device_class, source`,
    values: [range.websiteId, range.fromDay, range.toDay],
  });
  return rows.map((row) => ({ deviceClass: row.device_class, source: row.source, accepted: row.accepted, declined: row.declined }));
}

export interface DailyBannerImpressions {
  readonly day: string;
  readonly position: BannerPosition;
  readonly theme: BannerTheme;
  readonly impressions: number;
}

/** Impressions per day per position and theme (all device classes together). */
export async function getDailyBannerImpressions(db: Queryable, range: AnalyticsRange): Promise<DailyBannerImpressions[]> {
  const { rows } = await db.query<{ day: string; position: BannerPosition; theme: BannerTheme; impressions: number }>({
    name: 'get-daily-banner-impressions',
    text: `SELECT to_char(day, 'YYYY-MM-DD') AS day, position, theme, sum(impressions)::int8 AS impressions
             FROM banner_impressions_daily
            WHERE website_id = $1 AND day BETWEEN $2::date AND $3::date
            GROUP BY day, position, theme
            ORDER BY day, position, theme`,
    values: [range.websiteId, range.fromDay, range.toDay],
  });
  return rows;
}

export interface DailyChoices {
  readonly day: string;
  readonly accepted: number;
  readonly declined: number;
}

/** Choices made in the first banner (source 'banner'), per day: the answers to impressions. */
export async function getDailyBannerChoices(db: Queryable, range: AnalyticsRange): Promise<DailyChoices[]> {
  const { rows } = await db.query<{ day: string; accepted: number; declined: number }>({
    name: 'get-daily-banner-choices',
    text: `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(accepted)::int8 AS accepted, sum(declined)::int8 AS declined
             FROM consent_dimensions_daily
            WHERE website_id = $1 AND day BETWEEN $2::date AND $3::date AND source = 'banner'
            GROUP BY day
            ORDER BY day`,
    values: [range.websiteId, range.fromDay, range.toDay],
  });
  return rows;
}
