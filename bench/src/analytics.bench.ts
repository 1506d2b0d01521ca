// `npm run bench:analytics` — site analytics' speed targets on this machine's Postgres (DATABASE_URL)
// and NATS (NATS_URL), each against a baseline measured in the same run:
//   1. projection lag (append commit → visible in analytics_daily) at a steady 5,000 page views/s
//      through the relay and projector over NATS — first, before the bulk load below leaves
//      Postgres busy writing gigabytes of checkpoints;
//   2. replay of the analytics projection over 10,000,000 page views spread over 90 days (bulk-loaded
//      in SQL: the point is the replay, not the loader; --pageviews N for another count);
//   3. the 90-day getSiteAnalytics of the largest website, p95, vs the same figures computed by
//      scanning the raw events table (which must give the same numbers).
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  createGroupCommitAppender,
  createLogger,
  createNatsBus,
  type Db,
  type GroupAppendRequest,
} from '@consentry/infra';
import { formatNumber, printVerdicts, sleep, summarise, type Verdict } from './harness/harness';
import { createTestDatabase, deleteNatsStream, type TestDatabase } from '@consentry/infra/testing';
import { analyticsProjection, analyticsTables, getSiteAnalytics, replayProjection, startProjector, startRelay, type SiteAnalytics } from '@consentry/projections';

const { values: args } = parseArgs({
  options: {
    pageviews: { type: 'string', default: '10000000' },
    'with-hides': { type: 'boolean', default: false },
    'query-runs': { type: 'string', default: '50' },
    'lag-seconds': { type: 'string', default: '10' },
    'replay-batch': { type: 'string', default: '20000' },
    only: { type: 'string', default: 'lag,replay,query' },
    keep: { type: 'boolean', default: false },
  },
});
const parts = new Set(args.only.split(','));
const pageviews = Math.floor(Number(args.pageviews) / 12) * 12; // whole groups of 12 page views (4 visits)
const withHides = args['with-hides'];
const queryRuns = Number(args['query-runs']);
const lagSeconds = Number(args['lag-seconds']);
const replayBatchSize = Number(args['replay-batch']);
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const logger = createLogger({ level: 'silent' });
const websiteCount = 20;
const periodDays = 90;
const firstDay = '2026-01-01';
const lastDay = '2026-03-31'; // 90 days from firstDay, inclusive

/**
 * Loads the synthetic traffic: page views in groups of 12 forming visits of 1, 2, 3 and 6 pages
 * (a quarter of visits bounce), pages 2 minutes apart, visits evenly spread over 90 days; each
 * visitor makes 3 visits 30 days apart; half the visitors are on website 0, the rest spread over 19
 * others; landing referrers from a mix of none, search engines (two Google country domains) and
 * other sites, later pages self-referred; 400 paths, skewed; device class per visitor. With
 * --with-hides, every second page view also gets a PageHidden one minute later.
 */
async function loadTraffic(db: TestDatabase, websites: readonly string[]): Promise<void> {
  const visits = (pageviews / 12) * 4;
  const visitors = Math.max(1, Math.floor(visits / 3));
  const chunk = 12 * 20_000; // whole groups, so a visit never straddles two inserts
  const started = performance.now();
  for (let offset = 0; offset < pageviews; offset += chunk) {
    await db.pool.query(
      `INSERT INTO events (event_id, stream_id, type, schema_version, data)
       SELECT gen_random_uuid(), 'visits-' || site || '-' || visitor_id, kind, 1,
              CASE kind
                WHEN 'PageViewed' THEN jsonb_build_object(
                  'websiteId', site, 'visitorId', visitor_id, 'pageviewId', pageview_id,
                  'url', 'https://www.site' || site_no || '.example' || path, 'path', path, 'referrer', referrer,
                  'title', null, 'deviceClass', device, 'country', 'DE', 'receivedAt', to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                ELSE jsonb_build_object(
                  'websiteId', site, 'visitorId', visitor_id, 'pageviewId', pageview_id,
                  'visibleMs', 5000 + (n % 120) * 1000, 'receivedAt', to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
              END
         FROM (
           SELECT n, kind, site, site_no, visitor_id, pageview_id, path, device,
                  CASE WHEN page > 0 THEN 'https://www.site' || site_no || '.example/'
                       ELSE (ARRAY[null, null, null, null, 'https://www.google.com/', 'https://www.google.de/',
                                   'https://duckduckgo.com/', 'https://www.bing.com/search?q=x', 'https://news.ycombinator.com/item',
                                   'https://www.facebook.com/'])[1 + abs(hashtext('referrer' || visit)) % 10] END AS referrer,
                  timestamp '${firstDay}' + visit * ($4::float8 * 86400 / $5::int8) * interval '1 second'
                    + page * interval '2 minutes' + CASE kind WHEN 'PageHidden' THEN interval '1 minute' ELSE interval '0' END AS at
             FROM generate_series($2::int8, $3::int8) AS n
             CROSS JOIN LATERAL (SELECT CASE WHEN n % 12 = 0 THEN 0 WHEN n % 12 < 3 THEN 1 WHEN n % 12 < 6 THEN 2 ELSE 3 END AS slot) AS s
             CROSS JOIN LATERAL (SELECT (n / 12) * 4 + slot AS visit, n % 12 - (ARRAY[0, 1, 3, 6])[slot + 1] AS page) AS v
             CROSS JOIN LATERAL (SELECT visit % $6::int8 AS visitor) AS w
             CROSS JOIN LATERAL (SELECT CASE WHEN abs(hashtext('site' || visitor)) % 2 = 0 THEN 0
                                             ELSE 1 + abs(hashtext('other' || visitor)) % ${websiteCount - 1} END AS site_no) AS x
             CROSS JOIN LATERAL (
               SELECT ($1::uuid[])[site_no + 1] AS site,
                      md5('visitor' || visitor)::uuid::text AS visitor_id,
                      md5('pageview' || n)::uuid AS pageview_id,
                      '/p/' || floor(400 * power(random(), 3))::int AS path,
                      (ARRAY['desktop', 'mobile', 'tablet'])[1 + abs(hashtext('device' || visitor)) % 3] AS device
             ) AS y
             CROSS JOIN LATERAL (VALUES ('PageViewed'), ('PageHidden')) AS k(kind)
            WHERE kind = 'PageViewed' OR ($7::boolean AND n % 2 = 0)
         ) AS traffic
        ORDER BY at`,
      [websites, offset, Math.min(pageviews, offset + chunk) - 1, periodDays, visits, visitors, withHides],
    );
    if ((offset / chunk) % 5 === 4) {
      const done = Math.min(pageviews, offset + chunk);
      const rate = done / ((performance.now() - started) / 1000);
      process.stdout.write(`  loaded ${formatNumber(done)} page views (${formatNumber(rate)}/s)\n`);
    }
  }
  await db.pool.query('VACUUM ANALYZE events');
}

/** The same figures as getSiteAnalytics, computed by scanning the raw events (docs/analytics.md). */
async function scanRawEvents(pool: Db, websiteId: string): Promise<SiteAnalytics> {
  const { rows } = await pool.query<{ result: SiteAnalytics }>({
    name: 'bench-scan-raw-events',
    text: `WITH pv AS (
             SELECT transaction_id, position, data->>'visitorId' AS visitor, (data->>'receivedAt')::timestamptz AS at,
                    ((data->>'receivedAt')::timestamptz AT TIME ZONE 'UTC')::date AS day,
                    data->>'pageviewId' AS pageview, data->>'path' AS path, data->>'url' AS url,
                    data->>'referrer' AS referrer, data->>'deviceClass' AS device
               FROM events WHERE type = 'PageViewed' AND data->>'websiteId' = $1
           ),
           hidden AS (
             SELECT data->>'pageviewId' AS pageview, max((data->>'visibleMs')::int8) AS visible_ms
               FROM events WHERE type = 'PageHidden' AND data->>'websiteId' = $1
              GROUP BY 1
           ),
           marked AS (
             SELECT pv.*, CASE WHEN lag(at) OVER w IS NULL OR at - lag(at) OVER w > interval '30 minutes' THEN 1 ELSE 0 END AS starts
               FROM pv WINDOW w AS (PARTITION BY visitor ORDER BY transaction_id, position)
           ),
           numbered AS (
             SELECT marked.*, sum(starts) OVER (PARTITION BY visitor ORDER BY transaction_id, position) AS visit_no FROM marked
           ),
           visits AS (
             SELECT count(*) AS pages, min(day) AS day, coalesce(sum(hidden.visible_ms), 0) AS visible_ms,
                    (array_agg(referrer ORDER BY transaction_id, position))[1] AS referrer,
                    (array_agg(url ORDER BY transaction_id, position))[1] AS url,
                    (array_agg(device ORDER BY transaction_id, position))[1] AS device
               FROM numbered LEFT JOIN hidden USING (pageview)
              GROUP BY visitor, visit_no
           ),
           in_range AS (SELECT * FROM visits WHERE day BETWEEN $2::date AND $3::date),
           hosts AS (
             SELECT in_range.*,
                    regexp_replace(rtrim(lower(substring(referrer from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/]*@)?([^/:?#]+)')), '.'), '^www\\.', '') AS host,
                    regexp_replace(rtrim(lower(substring(url from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/]*@)?([^/:?#]+)')), '.'), '^www\\.', '') AS page_host
               FROM in_range
           ),
           referrers AS (
             SELECT CASE WHEN host IS NULL OR host = '' THEN 'Direct'
                         WHEN host = page_host OR host LIKE '%.' || page_host OR page_host LIKE '%.' || host THEN 'Direct'
                         WHEN host ~ '(^|\\.)(google|bing|yahoo|duckduckgo)\\.([a-z]{2,3}|(co|com)\\.[a-z]{2})$'
                           THEN substring(host from '(?:^|\\.)(google|bing|yahoo|duckduckgo)\\.(?:[a-z]{2,3}|(?:co|com)\\.[a-z]{2})$')
                         ELSE host END AS domain
               FROM hosts
           )
           SELECT jsonb_build_object(
             'uniqueVisitors', (SELECT count(DISTINCT visitor) FROM pv WHERE day BETWEEN $2::date AND $3::date),
             'totalPageviews', (SELECT count(*) FROM pv WHERE day BETWEEN $2::date AND $3::date),
             'visits', (SELECT count(*) FROM in_range),
             'visitPageviews', (SELECT coalesce(sum(pages), 0) FROM in_range),
             'bounces', (SELECT count(*) FROM in_range WHERE pages = 1),
             'visitTimeMs', (SELECT coalesce(sum(visible_ms), 0) FROM in_range),
             'topPages', (SELECT coalesce(jsonb_agg(jsonb_build_object('url', path, 'views', views) ORDER BY views DESC, path COLLATE "C"), '[]')
                            FROM (SELECT path, count(*) AS views FROM pv WHERE day BETWEEN $2::date AND $3::date
                                   GROUP BY path ORDER BY views DESC, path COLLATE "C" LIMIT 8) AS top),
             'topReferrers', (SELECT coalesce(jsonb_agg(jsonb_build_object('domain', domain, 'visits', visits) ORDER BY visits DESC, domain COLLATE "C"), '[]')
                                FROM (SELECT domain, count(*) AS visits FROM referrers GROUP BY domain ORDER BY visits DESC, domain COLLATE "C" LIMIT 10) AS top),
             'deviceBreakdown', (SELECT coalesce(jsonb_object_agg(device, visits), '{}') FROM (SELECT device, count(*) AS visits FROM in_range GROUP BY device) AS d)
           ) AS result`,
    values: [websiteId, firstDay, lastDay],
  });
  const raw = rows[0]!.result as unknown as {
    uniqueVisitors: number;
    totalPageviews: number;
    visits: number;
    visitPageviews: number;
    bounces: number;
    visitTimeMs: number;
    topPages: SiteAnalytics['topPages'];
    topReferrers: SiteAnalytics['topReferrers'];
    deviceBreakdown: Record<string, number>;
  };
  const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
  return {
    uniqueVisitors: raw.uniqueVisitors,
    totalPageviews: raw.totalPageviews,
    pagesPerVisit: raw.visits === 0 ? 0 : round(raw.visitPageviews / raw.visits, 2),
    avgTimeOnSite: raw.visits === 0 ? 0 : Math.round(raw.visitTimeMs / raw.visits / 1000),
    bounceRate: raw.visits === 0 ? 0 : round((raw.bounces / raw.visits) * 100, 1),
    topPages: raw.topPages,
    topReferrers: raw.topReferrers,
    // No engagement in this traffic; the projection's counts must be zero too.
    mobileEngagement: { locationMapViews: 0, hoursOperationViews: 0, contactFormSubmissions: 0, tapToCallActions: 0 },
    deviceBreakdown: Object.fromEntries(Object.entries(raw.deviceBreakdown).sort(([a], [b]) => a.localeCompare(b))),
  };
}

async function benchReplayAndQuery(): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  const events = pageviews + (withHides ? pageviews / 2 : 0);
  process.stdout.write(
    `\n[2/3] analytics replay over ${formatNumber(pageviews)} page views${withHides ? ` + ${formatNumber(pageviews / 2)} PageHidden` : ''} ` +
      `over ${periodDays} days, ${websiteCount} websites\n`,
  );
  const db = await createTestDatabase('bench_analytics', { poolSize: 8 });
  try {
    const websites = Array.from({ length: websiteCount }, () => randomUUID());
    const loadStarted = performance.now();
    await loadTraffic(db, websites);
    process.stdout.write(`  loaded ${formatNumber(events)} events in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s\n`);

    const summary = await replayProjection(db.pool, analyticsProjection, {
      batchSize: replayBatchSize,
      onProgress: ({ events: done }) => {
        if (done % 1_000_000 < replayBatchSize) process.stdout.write(`  replayed ${formatNumber(done)} events\n`);
      },
    });
    process.stdout.write(
      `  replay: ${formatNumber(summary.events)} events in ${(summary.durationMs / 1000).toFixed(1)} s = ` +
        `${formatNumber(summary.eventsPerSecond)} events/s (${summary.batches} batches)\n`,
    );
    await db.pool.query(`VACUUM ANALYZE ${analyticsTables.join(', ')}`);
    const sizes = await db.pool.query<{ name: string; rows: number; size: string }>(
      `SELECT relname AS name, n_live_tup::int8 AS rows, pg_size_pretty(pg_total_relation_size(relid)) AS size
         FROM pg_stat_user_tables WHERE relname LIKE 'analytics%' ORDER BY relname`,
    );
    for (const table of sizes.rows) process.stdout.write(`    ${table.name}: ${formatNumber(table.rows)} rows, ${table.size}\n`);
    verdicts.push(
      { name: 'analytics replay throughput', value: `${formatNumber(summary.eventsPerSecond)} events/s`, target: 'reference', pass: true },
      { name: 'replayed events = log', value: `${formatNumber(summary.events)} = ${formatNumber(events)}`, target: 'equal', pass: summary.events === events },
    );

    if (parts.has('query')) {
      process.stdout.write(`\n[3/3] 90-day getSiteAnalytics of the largest website (about ${formatNumber(pageviews / 2)} page views), ${queryRuns} runs\n`);
      const range = { websiteId: websites[0]!, fromDay: firstDay, toDay: lastDay };
      for (let warm = 0; warm < 5; warm++) await getSiteAnalytics(db.pool, range);
      const durations: number[] = [];
      let projected: SiteAnalytics | undefined;
      for (let run = 0; run < queryRuns; run++) {
        const started = performance.now();
        projected = await getSiteAnalytics(db.pool, range);
        durations.push(performance.now() - started);
      }
      const query = summarise(durations);
      process.stdout.write(`  read model: p50 ${query.p50.toFixed(1)} ms, p95 ${query.p95.toFixed(1)} ms, max ${query.max.toFixed(1)} ms\n`);
      const scanStarted = performance.now();
      const scanned = await scanRawEvents(db.pool, websites[0]!);
      const scanMs = performance.now() - scanStarted;
      process.stdout.write(`  baseline (scan of the raw events, same figures): ${(scanMs / 1000).toFixed(1)} s\n`);
      process.stdout.write(`  figures: ${JSON.stringify({ ...projected, topPages: projected?.topPages.slice(0, 3) })}\n`);
      const same = JSON.stringify(projected) === JSON.stringify(scanned);
      if (!same) process.stdout.write(`  read model: ${JSON.stringify(projected)}\n  raw scan:   ${JSON.stringify(scanned)}\n`);
      verdicts.push(
        { name: '90-day analytics query p95', value: `${query.p95.toFixed(1)} ms`, target: '≤ 50 ms', pass: query.p95 <= 50 },
        { name: 'query vs raw-event scan', value: `${formatNumber(scanMs / query.p95)}× faster`, target: 'reference', pass: true },
        { name: 'read model = raw-event scan', value: same ? 'identical figures' : 'different figures', target: 'identical', pass: same },
      );
    }
  } finally {
    if (args.keep) process.stdout.write(`  kept database ${db.name}\n`);
    else await db.drop();
  }
  return verdicts;
}

/**
 * Page views made ahead of time (fresh ids), so the producer only appends: 50,000 visitors in turn,
 * each viewing a page every 10 s at 5,000 page views/s, like a busy site's concurrent visits.
 */
function preparedPageviews(websiteId: string, count: number): () => GroupAppendRequest {
  const visitors = Array.from({ length: 50_000 }, () => randomUUID());
  const ids = Array.from({ length: count }, () => [randomUUID(), randomUUID()] as const);
  let next = 0;
  return () => {
    const pair = ids[next];
    if (pair === undefined) throw new Error('bench ran out of prepared page views; raise the count');
    const visitorId = visitors[next % visitors.length]!;
    next++;
    return {
      streamId: `visits-${websiteId}-${visitorId}`,
      event: {
        type: 'PageViewed',
        eventId: pair[0],
        data: {
          websiteId,
          visitorId,
          pageviewId: pair[1],
          url: `https://www.shop.example.com/p/${next % 50}`,
          path: `/p/${next % 50}`,
          referrer: next % 4 === 0 ? 'https://www.google.de/' : null,
          title: null,
          deviceClass: next % 3 === 0 ? 'mobile' : 'desktop',
          country: 'DE',
          receivedAt: new Date().toISOString(),
        },
      },
    };
  };
}

async function benchLag(): Promise<Verdict[]> {
  const rate = 5000;
  process.stdout.write(`\n[1/3] projection lag at ${formatNumber(rate)} page views/s for ${lagSeconds} s over NATS (append commit → visible in analytics_daily)\n`);
  const suffix = randomUUID().slice(0, 8);
  const db = await createTestDatabase('bench_analytics_lag');
  const stream = `BENCH_${suffix}_ANALYTICS`;
  const subjectPrefix = `bench.${suffix}.analytics`;
  const bus = await createNatsBus({ url: natsUrl, stream, subjectPrefix });
  const relay = startRelay({ connectionString: db.connectionString, bus, subjectPrefix, logger });
  const projector = startProjector({ connectionString: db.connectionString, bus, subjectPrefix, projection: analyticsProjection, logger });
  const websiteId = randomUUID();
  const appender = createGroupCommitAppender(db.pool);
  const nextPageview = preparedPageviews(websiteId, rate * (lagSeconds + 2));
  const projected = async () => {
    const { rows } = await db.pool.query<{ n: number }>('SELECT coalesce(sum(pageviews), 0)::int8 AS n FROM analytics_daily WHERE website_id = $1', [websiteId]);
    return rows[0]!.n;
  };
  try {
    // Warm up: leadership taken, consumer created, first batch through.
    await appender.append(nextPageview());
    while ((await projected()) < 1) await sleep(5);

    const tickMs = 10;
    const perTick = Math.round((rate * tickMs) / 1000);
    const commits: Array<{ total: number; at: number }> = [];
    let appended = 1;
    let producing = true;
    const producer = (async () => {
      const started = performance.now();
      for (let tick = 0; performance.now() - started < lagSeconds * 1000; tick++) {
        const wait = started + tick * tickMs - performance.now();
        if (wait > 0) await sleep(wait);
        const batch = Array.from({ length: perTick }, () => appender.append(nextPageview()));
        appended += perTick;
        const total = appended;
        void Promise.all(batch).then(() => commits.push({ total, at: performance.now() }));
      }
      producing = false;
    })();
    const lags: number[] = [];
    let next = 0;
    while (producing || next < commits.length) {
      const seen = await projected();
      const now = performance.now();
      commits.sort((a, b) => a.total - b.total);
      while (next < commits.length && commits[next]!.total <= seen) lags.push(now - commits[next++]!.at);
      if (!producing && next >= commits.length) break;
      await sleep(2);
    }
    await producer;
    const lag = summarise(lags);
    const achieved = (appended - 1) / lagSeconds;
    process.stdout.write(
      `  NATS JetStream: p50 ${lag.p50.toFixed(0)} ms, p95 ${lag.p95.toFixed(0)} ms, p99 ${lag.p99.toFixed(0)} ms ` +
        `(${formatNumber(achieved)} page views/s offered, ${lag.count} commit points)\n`,
    );
    return [
      { name: 'analytics projection lag p99 over NATS', value: `${lag.p99.toFixed(0)} ms`, target: '≤ 1000 ms', pass: lag.p99 <= 1000 },
      { name: 'offered rate', value: `${formatNumber(achieved)} page views/s`, target: `≥ ${formatNumber(rate * 0.95)}`, pass: achieved >= rate * 0.95 },
    ];
  } finally {
    await appender.close();
    await Promise.all([relay.stop(), projector.stop()]);
    await bus.close();
    await deleteNatsStream(stream);
    await db.drop();
  }
}

const verdicts = [
  ...(parts.has('lag') ? await benchLag() : []),
  ...(parts.has('replay') || parts.has('query') ? await benchReplayAndQuery() : []),
];
const allPass = printVerdicts('bench:analytics', verdicts);
process.exitCode = allPass ? 0 : 1;
