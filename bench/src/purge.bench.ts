// `npm run bench:purge` — the retention purge under live traffic (issue: compliance jobs):
//   a website with 1,000,000 consents older than its 24-month retention (plus 50,000 newer ones),
//   sealed and fully projected; consent ingest runs at a steady rate against the real ingest service
//   in its own process, first alone (the baseline), then while `purgeWebsite` removes the million.
//   Prints the purge rate, ingest p99 alone and during the purge (their ratio), and every non-2xx
//   answer; afterwards checks totals and that the ledger verifies.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { generateKeyPairSync } from 'node:crypto';
import { sealAll, signerFromPrivateKey, verifyLedger } from '@consentry/infra';
import { formatNumber, printVerdicts } from './harness/harness';
import { createTestDatabase, freePort } from '@consentry/infra/testing';
import { addTestWebsite, consentBodyFor, type TestWebsite } from '@consentry/ingest/testing';
import { asyncProjections, getWebsite, replayProjection } from '@consentry/projections';
import { purgeWebsite } from '@consentry/jobs';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    rate: { type: 'string', default: '500' },
    'baseline-seconds': { type: 'string', default: '20' },
  },
});
const oldEvents = Number(args.events);
const keptEvents = Math.round(oldEvents / 20);
const rate = Number(args.rate);
const serverScript = fileURLToPath(new URL('./ingest-server.ts', import.meta.url));
const origin = 'https://www.shop.example.test';
const day = 86_400_000;

async function startIngest(databaseUrl: string, website: TestWebsite): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', serverScript], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), MODE: 'group', WEBSITE_ID: website.id },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('READY') && resolve());
    child.once('exit', (code) => reject(new Error(`ingest server exited with ${code}`)));
  });
  return { port, child };
}

/** Steady consent traffic until `until` settles (or for `seconds`); latency and every non-2xx. */
async function traffic(port: number, website: TestWebsite, options: { seconds?: number; until?: Promise<unknown> }) {
  let sent = 0;
  const options_ = {
    url: `http://127.0.0.1:${port}`,
    connections: 20,
    overallRate: rate,
    duration: options.seconds ?? 3600,
    requests: [
      {
        method: 'POST',
        path: '/api/collect/consent',
        setupRequest: (request) => ({
          ...request,
          headers: { 'content-type': 'text/plain;charset=UTF-8', origin, 'x-forwarded-for': `81.2.${sent % 250}.${sent++ % 200}` },
          body: JSON.stringify(consentBodyFor(website, { choice: sent % 3 === 0 ? 'declined' : 'accepted' })),
        }),
      },
    ],
  } satisfies autocannon.Options;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options_, (error, answer) => (error ? reject(error) : resolve(answer)));
    // Stopping still calls back with everything measured so far.
    options.until?.then(
      () => instance.stop(),
      () => instance.stop(),
    );
  });
  return { ok: result['2xx'], non2xx: result.non2xx, errors: result.errors + result.timeouts, p50: result.latency.p50, p99: result.latency.p99, perSecond: result['2xx'] / result.duration };
}

const db = await createTestDatabase('bench_purge', { poolSize: 8 });
const signer = signerFromPrivateKey(generateKeyPairSync('ed25519').privateKey);
const testWebsite = await addTestWebsite(db.pool);
const now = Date.now();
process.stdout.write(`\nbench:purge — ${formatNumber(oldEvents)} consents older than 24 months, ${formatNumber(keptEvents)} newer; ingest at ${rate}/s\n`);

// The log as years of ingest would have left it: old rows recorded in time order, so the BRIN
// index on recorded_at sees what a real log looks like. Written in SQL for speed (setup, not measured).
let started = performance.now();
const insertConsents = (count: number, firstMsAgo: number, spanMs: number) =>
  db.pool.query(
    `INSERT INTO events (event_id, stream_id, type, schema_version, data, recorded_at)
     SELECT gen_random_uuid(), 'consent-' || $1 || '-' || v, CASE WHEN i % 3 = 0 THEN 'ConsentDeclined' ELSE 'ConsentGiven' END, 1,
            jsonb_build_object('websiteId', $1::text, 'visitorId', v, 'source', 'banner', 'policyVersion', '1', 'language', 'en-US',
              'pageUrl', 'https://www.shop.example.test/', 'ipAddress', '81.2.' || (i % 250) || '.0', 'userAgent', 'Mozilla/5.0 (bench)',
              'deviceClass', CASE WHEN i % 2 = 0 THEN 'mobile' ELSE 'desktop' END, 'country', 'DE', 'city', NULL, 'email', NULL,
              'occurredAt', to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'receivedAt', to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
            t
       FROM (SELECT i, gen_random_uuid()::text AS v, to_timestamp(($2::float8 - $3::float8 * i / $4::float8) / 1000) AS t
               FROM generate_series(1, $4::int) AS i ORDER BY i DESC) AS rows`,
    [testWebsite.id, now - firstMsAgo, spanMs, count],
  );
for (let loaded = 0; loaded < oldEvents; loaded += 100_000) {
  const chunk = Math.min(100_000, oldEvents - loaded);
  // 30 to 27 months ago, oldest first.
  await insertConsents(chunk, 30 * 30 * day - (loaded / oldEvents) * 90 * day, (chunk / oldEvents) * 90 * day);
  process.stdout.write(`  loaded ${formatNumber(loaded + chunk)} old consents\r`);
}
await insertConsents(keptEvents, 60 * day, 50 * day);
process.stdout.write(`  loaded ${formatNumber(oldEvents + keptEvents)} consents in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);

started = performance.now();
const sealed = await sealAll(db.pool, signer);
const sealSeconds = (performance.now() - started) / 1000;
process.stdout.write(`  sealed ${formatNumber(sealed.events)} events in ${formatNumber(sealed.seals)} seals: ${formatNumber(sealed.events / sealSeconds)} events/s\n`);
for (const projection of asyncProjections) {
  const summary = await replayProjection(db.pool, projection);
  process.stdout.write(`  projected ${projection.name}: ${formatNumber(summary.eventsPerSecond)} events/s\n`);
}
const totals = async () => (await db.pool.query<{ n: number }>('SELECT coalesce(sum(accepted + declined), 0)::int8 AS n FROM consent_stats_daily')).rows[0]!.n;
const totalBefore = await totals();

const ingest = await startIngest(db.connectionString, testWebsite);
process.stdout.write(`\n[1/2] ingest alone, ${args['baseline-seconds']} s at ${rate} consents/s\n`);
const alone = await traffic(ingest.port, testWebsite, { seconds: Number(args['baseline-seconds']) });
process.stdout.write(`  p50 ${alone.p50} ms, p99 ${alone.p99} ms, ${formatNumber(alone.ok)} 2xx, ${alone.non2xx} non-2xx, ${alone.errors} errors\n`);

process.stdout.write(`\n[2/2] ingest during the purge of ${formatNumber(oldEvents)} events\n`);
const website = (await getWebsite(db.pool, testWebsite.id))!;
started = performance.now();
const purging = purgeWebsite(db.pool, signer, website, {
  onProgress: (removed, total) => removed % 100_000 < 2_000 && process.stdout.write(`  removed ${formatNumber(removed)} of ${formatNumber(total)}\r`),
});
const during = await traffic(ingest.port, testWebsite, { until: purging });
const purge = await purging;
const purgeSeconds = (performance.now() - started) / 1000;
ingest.child.kill('SIGTERM');
process.stdout.write(
  `  purge: ${formatNumber(purge.removed)} events in ${purge.batches} batches, ${purgeSeconds.toFixed(1)} s = ${formatNumber(purge.removed / purgeSeconds)} events/s\n` +
    `  ingest meanwhile: p50 ${during.p50} ms, p99 ${during.p99} ms, ${formatNumber(during.ok)} 2xx, ${during.non2xx} non-2xx, ${during.errors} errors\n`,
);

// Ingested consents are projected by replay here (no projectors run in this bench): totals must be
// the old total plus what ingest stored.
await replayProjection(db.pool, asyncProjections.find((projection) => projection.name === 'consent-stats')!);
const totalAfter = await totals();
// What ingest stored (a request in flight when the load stops is stored but not counted as a 2xx).
const ingested = (await db.pool.query<{ n: number }>(`SELECT count(*)::int8 - $1 AS n FROM events WHERE type IN ('ConsentGiven', 'ConsentDeclined')`, [keptEvents])).rows[0]!.n;
started = performance.now();
await sealAll(db.pool, signer);
const report = await verifyLedger(db.pool, { publicKey: signer.publicKey });
const verifySeconds = (performance.now() - started) / 1000;
process.stdout.write(`  verify after the purge: ${report.ok ? 'ok' : report.findings[0]?.message}, ${formatNumber(report.eventsChecked + report.purged)} sealed events in ${verifySeconds.toFixed(1)} s\n`);
await db.drop();

const ratio = during.p99 / Math.max(alone.p99, 1);
const passed = printVerdicts('bench:purge', [
  { name: 'purge rate', value: `${formatNumber(purge.removed / purgeSeconds)} events/s`, target: 'reference', pass: purge.removed === oldEvents },
  { name: 'ingest answers during the purge', value: `${formatNumber(during.ok)} 2xx, ${during.non2xx + during.errors} other`, target: 'all 2xx', pass: during.non2xx === 0 && during.errors === 0 && during.ok > 0 },
  { name: 'ingest p99 during purge vs alone', value: `${during.p99} ms vs ${alone.p99} ms (${ratio.toFixed(1)}×)`, target: 'reference', pass: true },
  {
    name: 'totals kept (old + ingested)',
    value: `${formatNumber(totalAfter)} = ${formatNumber(totalBefore)} + ${formatNumber(ingested)}`,
    target: 'equal, and ≥ the 2xx answers',
    pass: totalAfter === totalBefore + ingested && ingested >= alone.ok + during.ok,
  },
  { name: 'ledger verifies after the purge', value: report.ok ? 'yes' : 'no', target: 'yes', pass: report.ok },
]);
process.exitCode = passed ? 0 : 1;
