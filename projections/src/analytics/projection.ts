// The analytics projection (async): site analytics per website per day, from the page views, time
// on page and engagement the widget sends after acceptance, gated by each visitor's latest consent
// choice. A batch loads the state of the visitors it touches, folds in memory (fold.ts), then writes
// the changed visitor states and the per-day deltas with one upsert per table.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';
import { bucketsOfDay } from './buckets';
import {
  analyticsInputTypes,
  foldAnalyticsEvents,
  isAnalyticsInput,
  visitorKeyOf,
  type AnalyticsDeltas,
  type KeyedCount,
  type VisitorState,
} from './fold';

/** Every table of the analytics read model. */
export const analyticsTables = [
  'analytics_daily',
  'analytics_pages',
  'analytics_referrers',
  'analytics_daily_devices',
  'analytics_visitor_days',
  'analytics_visitors',
] as const;

interface VisitorRow {
  visitor_key: string;
  website_id: string;
  declined: boolean;
  last_seen_day: string | null;
  last_activity_ms: number | null;
  visit_day: string | null;
  visit_pageviews: number;
  visit_engaged: boolean;
  visit_pages: Array<[string, number]>;
}

async function loadVisitorStates(tx: DbTransaction, keys: readonly string[]): Promise<Map<string, VisitorState>> {
  const states = new Map<string, VisitorState>();
  if (keys.length === 0) return states;
  const { rows } = await tx.query<VisitorRow>({
    // Not a named (prepared) statement: PostgreSQL would keep the generic plan it made while the
    // table was nearly empty, a sequential scan, as the table grows (bench:e2e: 26 ms a batch of
    // ~430 visitors at 25,000 rows). Unnamed, each batch is planned for its own array.
    text: `SELECT visitor_key, website_id, declined, to_char(last_seen_day, 'YYYY-MM-DD') AS last_seen_day,
                  last_activity_ms, to_char(visit_day, 'YYYY-MM-DD') AS visit_day, visit_pageviews,
                  visit_engaged, visit_pages
             FROM analytics_visitors
            WHERE visitor_key = ANY($1::uuid[])`,
    values: [keys],
  });
  for (const row of rows) {
    states.set(row.visitor_key, {
      key: row.visitor_key,
      websiteId: row.website_id,
      declined: row.declined,
      lastSeenDay: row.last_seen_day,
      lastActivityMs: row.last_activity_ms,
      visitDay: row.visit_day,
      visitPageviews: row.visit_pageviews,
      visitEngaged: row.visit_engaged,
      visitPages: new Map(row.visit_pages),
    });
  }
  return states;
}

async function saveVisitorStates(tx: DbTransaction, states: readonly VisitorState[]): Promise<void> {
  if (states.length === 0) return;
  await tx.query({
    name: 'analytics-save-visitors',
    text: `INSERT INTO analytics_visitors (visitor_key, website_id, declined, last_seen_day, last_activity_ms, visit_day,
                                           visit_pageviews, visit_engaged, visit_pages)
           SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::boolean[], $4::date[], $5::int8[], $6::date[],
                                $7::int4[], $8::boolean[], $9::jsonb[])
           ON CONFLICT (visitor_key) DO UPDATE
             SET declined = EXCLUDED.declined, last_seen_day = EXCLUDED.last_seen_day,
                 last_activity_ms = EXCLUDED.last_activity_ms, visit_day = EXCLUDED.visit_day,
                 visit_pageviews = EXCLUDED.visit_pageviews, visit_engaged = EXCLUDED.visit_engaged,
                 visit_pages = EXCLUDED.visit_pages`,
    values: [
      states.map((state) => state.key),
      states.map((state) => state.websiteId),
      states.map((state) => state.declined),
      states.map((state) => state.lastSeenDay),
      states.map((state) => state.lastActivityMs),
      states.map((state) => state.visitDay),
      states.map((state) => state.visitPageviews),
      states.map((state) => state.visitEngaged),
      states.map((state) => JSON.stringify([...state.visitPages])),
    ],
  });
}

async function addDaily(tx: DbTransaction, deltas: AnalyticsDeltas): Promise<void> {
  const rows = [...deltas.daily.values()];
  if (rows.length === 0) return;
  await tx.query({
    name: 'analytics-add-daily',
    text: `INSERT INTO analytics_daily (website_id, day, pageviews, visits, visit_pageviews, bounces, visit_time_ms,
                                        location_map_views, opening_hours_views, contact_form_submissions, tap_to_call_actions)
           SELECT * FROM unnest($1::uuid[], $2::date[], $3::int8[], $4::int8[], $5::int8[], $6::int8[], $7::int8[],
                                $8::int8[], $9::int8[], $10::int8[], $11::int8[])
           ON CONFLICT (website_id, day) DO UPDATE
             SET pageviews = analytics_daily.pageviews + EXCLUDED.pageviews,
                 visits = analytics_daily.visits + EXCLUDED.visits,
                 visit_pageviews = analytics_daily.visit_pageviews + EXCLUDED.visit_pageviews,
                 bounces = analytics_daily.bounces + EXCLUDED.bounces,
                 visit_time_ms = analytics_daily.visit_time_ms + EXCLUDED.visit_time_ms,
                 location_map_views = analytics_daily.location_map_views + EXCLUDED.location_map_views,
                 opening_hours_views = analytics_daily.opening_hours_views + EXCLUDED.opening_hours_views,
                 contact_form_submissions = analytics_daily.contact_form_submissions + EXCLUDED.contact_form_submissions,
                 tap_to_call_actions = analytics_daily.tap_to_call_actions + EXCLUDED.tap_to_call_actions`,
    values: [
      rows.map((row) => row.websiteId),
      rows.map((row) => row.day),
      rows.map((row) => row.pageviews),
      rows.map((row) => row.visits),
      rows.map((row) => row.visitPageviews),
      rows.map((row) => row.bounces),
      rows.map((row) => row.visitTimeMs),
      rows.map((row) => row.locationMapViews),
      rows.map((row) => row.openingHoursViews),
      rows.map((row) => row.contactFormSubmissions),
      rows.map((row) => row.tapToCallActions),
    ],
  });
}

// Table and column names are constants of this module, never input.
const dailyTables = {
  devices: { name: 'analytics-add-devices', table: 'analytics_daily_devices', key: 'device_class', value: 'visits', keyType: 'text' },
  visitorDays: { name: 'analytics-add-visitor-days', table: 'analytics_visitor_days', key: 'previous_day', value: 'visitors', keyType: 'date' },
} as const;

const rolledUpTables = {
  pages: { name: 'analytics-add-pages', table: 'analytics_pages', key: 'path', value: 'views' },
  referrers: { name: 'analytics-add-referrers', table: 'analytics_referrers', key: 'domain', value: 'visits' },
} as const;

async function addDailyCounts(
  tx: DbTransaction,
  target: (typeof dailyTables)[keyof typeof dailyTables],
  counts: Map<string, KeyedCount<string>>,
): Promise<void> {
  const rows = [...counts.values()].filter((row) => row.count !== 0);
  if (rows.length === 0) return;
  const { name, table, key, value, keyType } = target;
  await tx.query({
    name,
    text: `INSERT INTO ${table} (website_id, day, ${key}, ${value})
           SELECT * FROM unnest($1::uuid[], $2::date[], $3::${keyType}[], $4::int8[])
           ON CONFLICT (website_id, day, ${key}) DO UPDATE SET ${value} = ${table}.${value} + EXCLUDED.${value}`,
    values: [rows.map((row) => row.websiteId), rows.map((row) => row.day), rows.map((row) => row.key), rows.map((row) => row.count)],
  });
}

/** Adds each day's counts to the day's buckets of every span (buckets.ts). */
async function addRolledUpCounts(
  tx: DbTransaction,
  target: (typeof rolledUpTables)[keyof typeof rolledUpTables],
  counts: Map<string, KeyedCount<string>>,
): Promise<void> {
  const buckets = new Map<string, { websiteId: string; span: number; firstDay: string; key: string; count: number }>();
  const bucketsByDay = new Map<string, ReturnType<typeof bucketsOfDay>>();
  for (const row of counts.values()) {
    if (row.count === 0) continue;
    let dayBuckets = bucketsByDay.get(row.day);
    if (dayBuckets === undefined) bucketsByDay.set(row.day, (dayBuckets = bucketsOfDay(row.day)));
    for (const { span, firstDay } of dayBuckets) {
      const id = `${row.websiteId}|${span}|${firstDay}|${row.key}`;
      const bucket = buckets.get(id);
      if (bucket) bucket.count += row.count;
      else buckets.set(id, { websiteId: row.websiteId, span, firstDay, key: row.key, count: row.count });
    }
  }
  if (buckets.size === 0) return;
  const rows = [...buckets.values()];
  const { name, table, key, value } = target;
  await tx.query({
    name,
    text: `INSERT INTO ${table} (website_id, span, first_day, ${key}, ${value})
           SELECT * FROM unnest($1::uuid[], $2::int2[], $3::date[], $4::text[], $5::int8[])
           ON CONFLICT (website_id, span, first_day, ${key}) DO UPDATE SET ${value} = ${table}.${value} + EXCLUDED.${value}`,
    values: [
      rows.map((row) => row.websiteId),
      rows.map((row) => row.span),
      rows.map((row) => row.firstDay),
      rows.map((row) => row.key),
      rows.map((row) => row.count),
    ],
  });
}

export const analyticsProjection: Projection = {
  name: 'analytics',
  partitionedByWebsite: true,
  canHandle: analyticsInputTypes,

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    const keys = new Set<string>();
    for (const event of events) {
      if (isAnalyticsInput(event)) keys.add(visitorKeyOf(event.data.websiteId, event.data.visitorId));
    }
    const states = await loadVisitorStates(tx, [...keys]);
    const { deltas, changed } = foldAnalyticsEvents(events, states);
    await saveVisitorStates(tx, [...changed].map((key) => states.get(key)!));
    await addDaily(tx, deltas);
    await addRolledUpCounts(tx, rolledUpTables.pages, deltas.pages);
    await addRolledUpCounts(tx, rolledUpTables.referrers, deltas.referrers);
    await addDailyCounts(tx, dailyTables.devices, deltas.devices);
    await addDailyCounts(tx, dailyTables.visitorDays, deltas.visitorDays);
  },

  tables: analyticsTables,

  // Analytics cover the retention period only: a purge drops every day before the cut-off, and
  // takes those days out of the 7- and 28-day buckets that straddle it, so the read model is what
  // a replay of the remaining log builds.
  // A visitor known only from a removed consent (no page views: no last seen day) is forgotten with it.
  async purged(removed: readonly StoredEvent[], _purgeEventId: string, tx: DbTransaction): Promise<void> {
    const keys = removed.flatMap((event) =>
      event.type === 'ConsentGiven' || event.type === 'ConsentDeclined' ? [visitorKeyOf(event.data.websiteId, event.data.visitorId)] : [],
    );
    if (keys.length === 0) return;
    await tx.query('DELETE FROM analytics_visitors WHERE visitor_key = ANY($1::uuid[]) AND last_seen_day IS NULL', [keys]);
  },

  async purgedBefore(websiteId: string, cutoffDay: string, tx: DbTransaction): Promise<void> {
    for (const table of ['analytics_pages', 'analytics_referrers'] as const) {
      const key = table === 'analytics_pages' ? 'path' : 'domain';
      const count = table === 'analytics_pages' ? 'views' : 'visits';
      // Subtract the purged days (their 1-day rows) from the larger buckets that hold them.
      await tx.query(
        `UPDATE ${table} AS bucket
            SET ${count} = bucket.${count} - purged.${count}
           FROM (SELECT spans.span,
                        date '1970-01-01' + ((day.first_day - date '1970-01-01') / spans.span) * spans.span AS first_day,
                        day.${key}, sum(day.${count}) AS ${count}
                   FROM ${table} AS day CROSS JOIN (VALUES (7), (28)) AS spans(span)
                  WHERE day.website_id = $1 AND day.span = 1 AND day.first_day < $2::date
                  GROUP BY 1, 2, 3) AS purged
          WHERE bucket.website_id = $1 AND bucket.span = purged.span AND bucket.first_day = purged.first_day AND bucket.${key} = purged.${key}`,
        [websiteId, cutoffDay],
      );
      await tx.query(`DELETE FROM ${table} WHERE website_id = $1 AND (${count} <= 0 OR (span = 1 AND first_day < $2::date))`, [websiteId, cutoffDay]);
    }
    for (const table of ['analytics_daily', 'analytics_daily_devices', 'analytics_visitor_days'] as const) {
      await tx.query(`DELETE FROM ${table} WHERE website_id = $1 AND day < $2::date`, [websiteId, cutoffDay]);
    }
    await tx.query('DELETE FROM analytics_visitors WHERE website_id = $1 AND last_seen_day < $2::date', [websiteId, cutoffDay]);
  },
};
