// `npm run bench:api` — the stats endpoints with 10,000,000 consent events in the log: p95 of each
// (target ≤ 20 ms), through the real api over HTTP with a signed-in owner, because they read
// pre-aggregated projections; against a baseline in the same run: the same totals computed from
// the raw log (what the endpoints would cost without projections).
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { formatNumber, printVerdicts, summarise, type Verdict } from './harness/harness';
import { createTestDatabase, waitForLogVisible } from '@consentry/infra/testing';
import { consentStatsProjection, replayProjection } from '@consentry/projections';
import { saveAdmin } from '@consentry/api';
import { addWebsiteAs, buildTestApi, registerOwner, signInAdmin } from '@consentry/api/testing';

const { values: args } = parseArgs({ options: { events: { type: 'string', default: '10000000' }, requests: { type: 'string', default: '300' } } });
const eventCount = Number(args.events);
const requestsPerEndpoint = Number(args.requests);

const db = await createTestDatabase('bench_api', { poolSize: 10 });
const api = await buildTestApi(db.pool);
const owner = await registerOwner(api.app);
// An owner on the business plan, so twenty websites are allowed.
await saveAdmin(db.pool, 'bench', 'bench admin password');
const admin = await signInAdmin(api.app, 'bench', 'bench admin password');
const upgraded = await admin.request({
  method: 'PUT',
  url: `/api/admin/users/${owner.id}`,
  payload: { subscriptionTier: 'business', subscriptionStatus: 'active', maxWebsites: 50, maxConsentsPerMonth: 100_000_000, isActive: true },
});
if (upgraded.statusCode !== 200) throw new Error(`upgrading the owner failed: ${upgraded.statusCode} ${upgraded.body}`);
const websites = [];
for (let index = 0; index < 20; index++) websites.push(await addWebsiteAs(owner, `Site ${index}`, `site${index}.example.com`));
const websiteIds = websites.map((website) => website.id);

process.stdout.write(`\nloading ${formatNumber(eventCount)} consent events over 365 days into the log…\n`);
const loadStarted = performance.now();
for (let offset = 0; offset < eventCount; offset += 250_000) {
  await db.pool.query(
    `INSERT INTO events (event_id, stream_id, type, schema_version, data)
     SELECT gen_random_uuid(), 'consent-bench-' || n, CASE WHEN n % 3 = 0 THEN 'ConsentDeclined' ELSE 'ConsentGiven' END, 1,
            jsonb_build_object('websiteId', ($1::uuid[])[1 + n % 20], 'visitorId', 'v' || n, 'source', 'banner', 'policyVersion', '1',
              'language', 'en-US', 'pageUrl', 'https://www.example.com/', 'ipAddress', '203.0.113.0',
              'userAgent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0', 'deviceClass', 'desktop', 'country', 'DE', 'city', 'Berlin',
              'email', null,
              'occurredAt', to_char(now() - (n % 365) * interval '1 day' - (n % 86400) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'receivedAt', to_char(now() - (n % 365) * interval '1 day' - (n % 86400) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
       FROM generate_series($2::int, $3::int) AS n`,
    [websiteIds, offset, Math.min(eventCount, offset + 250_000) - 1],
  );
}
process.stdout.write(`  loaded in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s; building read models…\n`);
await db.pool.query('VACUUM ANALYZE events');
await waitForLogVisible(db.pool);
const replay = await replayProjection(db.pool, consentStatsProjection);
// The consent-records table, filled in one statement (what replaying that projection yields, faster
// to build here; the replay itself is measured by bench:ledger).
await db.pool.query(
  `INSERT INTO consent_records (event_id, website_id, visitor_id, choice, source, policy_version, received_at, occurred_at,
                                ip_address, user_agent, device_class, country, city, email, page_url, language)
   SELECT event_id, (data->>'websiteId')::uuid, data->>'visitorId', CASE WHEN type = 'ConsentGiven' THEN 'accepted' ELSE 'declined' END,
          data->>'source', data->>'policyVersion', (data->>'receivedAt')::timestamptz, (data->>'occurredAt')::timestamptz,
          data->>'ipAddress', data->>'userAgent', data->>'deviceClass', data->>'country', data->>'city', data->>'email',
          data->>'pageUrl', data->>'language'
     FROM events WHERE type IN ('ConsentGiven', 'ConsentDeclined')`,
);
await db.pool.query('VACUUM ANALYZE consent_records');
process.stdout.write(`  consent stats replayed at ${formatNumber(replay.eventsPerSecond)} events/s\n`);

await api.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
const endpoints = ['/api/stats/consents', '/api/stats/websites', '/api/stats/consents/daily?days=30', '/api/consents?limit=10', '/api/consents?limit=50'];
const verdicts: Verdict[] = [];
const p50ByEndpoint = new Map<string, number>();
process.stdout.write(`\nstats endpoints, ${requestsPerEndpoint} sequential requests each, signed-in owner of 20 websites\n`);
for (const endpoint of endpoints) {
  const timings: number[] = [];
  for (let index = 0; index < requestsPerEndpoint + 20; index++) {
    const started = performance.now();
    const response = await fetch(base + endpoint, { headers: { cookie: owner.cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${endpoint} answered ${response.status}`);
    if (index >= 20) timings.push(performance.now() - started);
  }
  const figures = summarise(timings);
  p50ByEndpoint.set(endpoint, figures.p50);
  process.stdout.write(`  ${endpoint}: p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms\n`);
  verdicts.push({ name: `${endpoint} p95`, value: `${figures.p95.toFixed(1)} ms`, target: '≤ 20 ms', pass: figures.p95 <= 20 });
}

// Baseline: the totals of /api/stats/consents straight from the log.
const baselineTimings: number[] = [];
for (let index = 0; index < 3; index++) {
  const started = performance.now();
  await db.pool.query(
    `SELECT count(*) AS total, count(*) FILTER (WHERE type = 'ConsentDeclined') AS declined FROM events
      WHERE type IN ('ConsentGiven', 'ConsentDeclined') AND (data->>'websiteId')::uuid = ANY($1::uuid[])`,
    [websiteIds],
  );
  baselineTimings.push(performance.now() - started);
}
const baseline = summarise(baselineTimings);
process.stdout.write(`  baseline (totals scanned from the log): p50 ${formatNumber(baseline.p50)} ms\n`);
const endpointP50 = p50ByEndpoint.get('/api/stats/consents') ?? Number.NaN;
verdicts.push({ name: 'log scan vs /api/stats/consents (p50)', value: `${formatNumber(baseline.p50 / endpointP50)}× slower`, target: 'reference', pass: true });
await api.close();
await db.drop();
process.exitCode = printVerdicts('bench:api', verdicts) ? 0 : 1;
