// Reads of the consent-stats read model.
import type { Queryable } from '@consentry/infra';

export interface ConsentStats {
  readonly totalConsents: number;
  readonly acceptedConsents: number;
  readonly declinedConsents: number;
  /** Accepted share of all choices, in percent (0 when there are none). */
  readonly consentRate: number;
}

export interface ConsentStatsFilter {
  /** Only these websites; omit for every website (admins, tests). */
  readonly websiteIds?: readonly string[];
  /** Inclusive UTC days, `YYYY-MM-DD`. */
  readonly fromDay?: string;
  readonly toDay?: string;
}

export function toConsentStats(accepted: number, declined: number): ConsentStats {
  const total = accepted + declined;
  return {
    totalConsents: total,
    acceptedConsents: accepted,
    declinedConsents: declined,
    consentRate: total === 0 ? 0 : (accepted / total) * 100,
  };
}

export async function getConsentStats(db: Queryable, filter: ConsentStatsFilter = {}): Promise<ConsentStats> {
  const { rows } = await db.query<{ accepted: number; declined: number }>({
    name: 'get-consent-stats',
    text: `SELECT coalesce(sum(accepted), 0)::int8 AS accepted, coalesce(sum(declined), 0)::int8 AS declined
             FROM consent_stats_daily
            WHERE ($1::uuid[] IS NULL OR website_id = ANY($1::uuid[]))
              AND ($2::date IS NULL OR day >= $2::date)
              AND ($3::date IS NULL OR day <= $3::date)`,
    values: [filter.websiteIds ?? null, filter.fromDay ?? null, filter.toDay ?? null],
  });
  const row = rows[0] ?? { accepted: 0, declined: 0 };
  return toConsentStats(row.accepted, row.declined);
}

export interface WebsiteConsentStats extends ConsentStats {
  readonly websiteId: string;
}

export async function getConsentStatsByWebsite(
  db: Queryable,
  filter: ConsentStatsFilter = {},
): Promise<WebsiteConsentStats[]> {
  const { rows } = await db.query<{ website_id: string; accepted: number; declined: number }>({
    name: 'get-consent-stats-by-website',
    text: `SELECT website_id, sum(accepted)::int8 AS accepted, sum(declined)::int8 AS declined
             FROM consent_stats_daily
            WHERE ($1::uuid[] IS NULL OR website_id = ANY($1::uuid[]))
              AND ($2::date IS NULL OR day >= $2::date)
              AND ($3::date IS NULL OR day <= $3::date)
            GROUP BY website_id
            ORDER BY website_id`,
    values: [filter.websiteIds ?? null, filter.fromDay ?? null, filter.toDay ?? null],
  });
  return rows.map((row) => ({ websiteId: row.website_id, ...toConsentStats(row.accepted, row.declined) }));
}

export interface DailyConsentCounts {
  readonly day: string;
  readonly accepted: number;
  readonly declined: number;
}

export async function getDailyConsentCounts(db: Queryable, filter: ConsentStatsFilter = {}): Promise<DailyConsentCounts[]> {
  const { rows } = await db.query<{ day: string; accepted: number; declined: number }>({
    name: 'get-daily-consent-counts',
    text: `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(accepted)::int8 AS accepted, sum(declined)::int8 AS declined
             FROM consent_stats_daily
            WHERE ($1::uuid[] IS NULL OR website_id = ANY($1::uuid[]))
              AND ($2::date IS NULL OR day >= $2::date)
              AND ($3::date IS NULL OR day <= $3::date)
            GROUP BY day
            ORDER BY day`,
    values: [filter.websiteIds ?? null, filter.fromDay ?? null, filter.toDay ?? null],
  });
  return rows;
}
