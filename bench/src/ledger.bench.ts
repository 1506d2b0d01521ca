// `npm run bench:ledger` — the ledger core's speed targets, each against a baseline measured in the
// same run on this machine's Postgres (DATABASE_URL) and NATS (NATS_URL):
//   1. group-commit append throughput, 16 producers, vs one INSERT + commit per event;
//   2. projection lag (append commit → visible in consent stats) at a steady 5,000 events/s over
//      NATS, beside the same pipeline on the in-memory bus;
//   3. replay throughput of consent stats over 1,000,000 events, vs applying one event at a time;
//   4. time-stamped seals (RFC 3161, OpenSSL's responder on loopback): sealing throughput with a
//      timestamper dating the head every 200 ms vs none, and append latency p99 while the authority
//      is down (the timestamper retrying) vs no timestamper.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { generateKeyPairSync } from 'node:crypto';
import {
  createGroupCommitAppender,
  createLogger,
  sealAll,
  signerFromPrivateKey,
  startSealer,
  startTimestamper,
  createMemoryBus,
  createNatsBus,
  prepareEvent,
  type Bus,
  type GroupAppendRequest,
  type Db,
} from '@consentry/infra';
import { formatNumber, printVerdicts, sleep, summarise, type Verdict } from './harness/harness';
import { consentAppendRequest, createTestDatabase, deleteNatsStream, startTestTimeStampingAuthority, type TestDatabase } from '@consentry/infra/testing';
import { consentStatsProjection, replayProjection, startProjector, startRelay } from '@consentry/projections';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    'lag-seconds': { type: 'string', default: '10' },
    'replay-events': { type: 'string', default: '1000000' },
    only: { type: 'string', default: 'append,lag,replay,timestamps' },
  },
});
const parts = new Set(args.only.split(','));
const runSeconds = Number(args.seconds);
const lagSeconds = Number(args['lag-seconds']);
const replayEvents = Number(args['replay-events']);
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const producers = 16;
const inFlightPerProducer = 64;
const logger = createLogger({ level: 'silent' });

/** Runs `producers` loops, each keeping `inFlightPerProducer` appends outstanding, for `seconds`. */
async function drive(seconds: number, appendOne: () => Promise<unknown>): Promise<{ events: number; perSecond: number }> {
  const deadline = performance.now() + seconds * 1000;
  let events = 0;
  const lane = async () => {
    while (performance.now() < deadline) {
      await appendOne();
      events++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: producers * inFlightPerProducer }, lane));
  const elapsed = (performance.now() - started) / 1000;
  return { events, perSecond: events / elapsed };
}

async function countEvents(pool: Db): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int8 AS n FROM events');
  return rows[0]!.n;
}

/**
 * Consent appends made ahead of time (1,000 visitors, fresh event ids), so both runs spend their
 * time writing, not generating test data; each call takes the next one.
 */
function preparedConsents(count: number): () => GroupAppendRequest {
  const websiteId = randomUUID();
  const templates = Array.from({ length: 1000 }, () => consentAppendRequest({ websiteId }));
  const eventIds = Array.from({ length: count }, () => randomUUID());
  let next = 0;
  return () => {
    const template = templates[next % templates.length]!;
    const eventId = eventIds[next++];
    if (eventId === undefined) throw new Error('bench ran out of prepared events; raise the count');
    return { streamId: template.streamId, event: { ...template.event, eventId } };
  };
}

async function benchAppend(): Promise<Verdict[]> {
  process.stdout.write(`\n[1/4] append throughput: ${producers} producers × ${inFlightPerProducer} appends in flight, ${runSeconds} s each\n`);

  const naiveDb = await createTestDatabase('bench_naive', { poolSize: producers });
  const nextNaive = preparedConsents(runSeconds * 30_000);
  const naive = await drive(runSeconds, () => {
    const request = nextNaive();
    const event = prepareEvent(request.event);
    return naiveDb.pool.query(
      'INSERT INTO events (event_id, stream_id, type, schema_version, data, metadata) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (event_id) DO NOTHING',
      [event.eventId, request.streamId, event.type, event.schemaVersion, event.data, event.metadata],
    );
  });
  const naiveRows = await countEvents(naiveDb.pool);
  await naiveDb.drop();
  process.stdout.write(`  baseline (one INSERT + commit per event, ${producers} connections): ${formatNumber(naive.perSecond)} events/s (${formatNumber(naiveRows)} rows)\n`);

  const groupDb = await createTestDatabase('bench_group', { poolSize: producers });
  const batchSizes: number[] = [];
  const appender = createGroupCommitAppender(groupDb.pool, { onBatchCommitted: (size) => batchSizes.push(size) });
  const nextGrouped = preparedConsents(runSeconds * 150_000);
  const grouped = await drive(runSeconds, () => appender.append(nextGrouped()));
  await appender.close();
  const groupRows = await countEvents(groupDb.pool);
  await groupDb.drop();
  const batches = summarise(batchSizes);
  process.stdout.write(
    `  group commit: ${formatNumber(grouped.perSecond)} events/s (${formatNumber(groupRows)} rows, ${batches.count} batches, ` +
      `batch size p50 ${batches.p50}, max ${batches.max})\n`,
  );
  const ratio = grouped.perSecond / naive.perSecond;
  return [
    { name: 'group-commit throughput', value: `${formatNumber(grouped.perSecond)} events/s`, target: '≥ 30,000 events/s', pass: grouped.perSecond >= 30_000 },
    { name: 'group commit vs baseline', value: `${ratio.toFixed(1)}×`, target: '≥ 5×', pass: ratio >= 5 },
    { name: 'rows stored = appends answered', value: `${formatNumber(groupRows)} = ${formatNumber(grouped.events)}`, target: 'equal', pass: groupRows === grouped.events && naiveRows === naive.events },
  ];
}

async function measureLag(db: TestDatabase, bus: Bus, subjectPrefix: string, seconds: number, rate: number) {
  const relay = startRelay({ connectionString: db.connectionString, bus, subjectPrefix, logger });
  const projector = startProjector({ connectionString: db.connectionString, bus, subjectPrefix, projection: consentStatsProjection, logger });
  const websiteId = randomUUID();
  const appender = createGroupCommitAppender(db.pool);
  // Warm up: leadership taken, consumer created, first batch through.
  await appender.append(consentAppendRequest({ websiteId }));
  const projected = async () => {
    const { rows } = await db.pool.query<{ n: number }>(
      'SELECT coalesce(sum(accepted + declined), 0)::int8 AS n FROM consent_stats_daily WHERE website_id = $1',
      [websiteId],
    );
    return rows[0]!.n;
  };
  while ((await projected()) < 1) await sleep(5);

  const tickMs = 10;
  const perTick = Math.round((rate * tickMs) / 1000);
  const commits: Array<{ total: number; at: number }> = [];
  let appended = 1;
  let producing = true;
  const producer = (async () => {
    const started = performance.now();
    for (let tick = 0; performance.now() - started < seconds * 1000; tick++) {
      const due = started + tick * tickMs;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const batch = Array.from({ length: perTick }, () => appender.append(consentAppendRequest({ websiteId })));
      appended += perTick;
      const total = appended;
      void Promise.all(batch).then(() => commits.push({ total, at: performance.now() }));
    }
    producing = false;
  })();
  const lags: number[] = [];
  let next = 0;
  while (producing || next < commits.length || lags.length < commits.length) {
    const seen = await projected();
    const now = performance.now();
    commits.sort((a, b) => a.total - b.total);
    while (next < commits.length && commits[next]!.total <= seen) lags.push(now - commits[next++]!.at);
    if (!producing && next >= commits.length) break;
    await sleep(2);
  }
  await producer;
  await appender.close();
  await Promise.all([relay.stop(), projector.stop()]);
  return { ...summarise(lags), achievedRate: (appended - 1) / seconds };
}

async function benchLag(): Promise<Verdict[]> {
  const rate = 5000;
  process.stdout.write(`\n[2/4] projection lag at ${formatNumber(rate)} events/s for ${lagSeconds} s (append commit → visible in consent stats)\n`);
  const suffix = randomUUID().slice(0, 8);

  const memoryDb = await createTestDatabase('bench_lag_mem');
  const memoryBus = createMemoryBus({ stream: `BENCH_${suffix}_MEM`, subjectPrefix: `bench.${suffix}.mem` });
  const memory = await measureLag(memoryDb, memoryBus, `bench.${suffix}.mem`, lagSeconds, rate);
  await memoryBus.close();
  await memoryDb.drop();
  process.stdout.write(`  in-memory bus (reference): p50 ${memory.p50.toFixed(0)} ms, p95 ${memory.p95.toFixed(0)} ms, p99 ${memory.p99.toFixed(0)} ms\n`);

  const natsDb = await createTestDatabase('bench_lag_nats');
  const stream = `BENCH_${suffix}_NATS`;
  const natsBus = await createNatsBus({ url: natsUrl, stream, subjectPrefix: `bench.${suffix}.nats` });
  const nats = await measureLag(natsDb, natsBus, `bench.${suffix}.nats`, lagSeconds, rate);
  await natsBus.close();
  await deleteNatsStream(stream);
  await natsDb.drop();
  process.stdout.write(
    `  NATS JetStream: p50 ${nats.p50.toFixed(0)} ms, p95 ${nats.p95.toFixed(0)} ms, p99 ${nats.p99.toFixed(0)} ms ` +
      `(${formatNumber(nats.achievedRate)} events/s offered, ${nats.count} commit points)\n`,
  );
  return [
    { name: 'projection lag p99 over NATS', value: `${nats.p99.toFixed(0)} ms`, target: '≤ 500 ms', pass: nats.p99 <= 500 },
    { name: 'NATS vs in-memory bus p99', value: `${(nats.p99 / Math.max(1, memory.p99)).toFixed(1)}×`, target: 'reference', pass: true },
  ];
}

async function benchReplay(): Promise<Verdict[]> {
  process.stdout.write(`\n[3/4] replay of consent stats over ${formatNumber(replayEvents)} events\n`);
  const db = await createTestDatabase('bench_replay', { poolSize: 4 });
  // Bulk-load the log in SQL: the point is to measure replay, not the loader.
  const websites = Array.from({ length: 50 }, () => randomUUID());
  const loadStarted = performance.now();
  for (let offset = 0; offset < replayEvents; offset += 200_000) {
    await db.pool.query(
      `INSERT INTO events (event_id, stream_id, type, schema_version, data)
       SELECT gen_random_uuid(), 'consent-bench-' || n, CASE WHEN n % 3 = 0 THEN 'ConsentDeclined' ELSE 'ConsentGiven' END, 1,
              jsonb_build_object('websiteId', ($1::uuid[])[1 + n % 50], 'visitorId', gen_random_uuid()::text, 'source', 'banner',
                'policyVersion', '1', 'language', 'en-US', 'pageUrl', 'https://www.example.com/', 'ipAddress', '203.0.113.7',
                'userAgent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
                'deviceClass', 'desktop', 'country', 'DE', 'city', 'Berlin', 'email', null,
                'occurredAt', to_char(timestamp '2026-01-01' + (n % 300) * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'receivedAt', to_char(timestamp '2026-01-01' + (n % 300) * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
         FROM generate_series($2::int, $3::int) AS n`,
      [websites, offset, Math.min(replayEvents, offset + 200_000) - 1],
    );
  }
  await db.pool.query('VACUUM ANALYZE events');
  process.stdout.write(`  loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s\n`);

  // Baseline: the same events applied one at a time (one upsert per event), on a sample.
  const sample = Math.min(50_000, replayEvents);
  const baselineStarted = performance.now();
  await replayProjection(db.pool, consentStatsProjection, { batchSize: 1, onProgress: ({ events }) => { if (events >= sample) throw new StopSample(); } }).catch((error: unknown) => {
    if (!(error instanceof StopSample)) throw error;
  });
  const baselineRate = sample / ((performance.now() - baselineStarted) / 1000);
  process.stdout.write(`  baseline (one event per apply, ${formatNumber(sample)}-event sample): ${formatNumber(baselineRate)} events/s\n`);

  const summary = await replayProjection(db.pool, consentStatsProjection);
  process.stdout.write(
    `  replay: ${formatNumber(summary.events)} events in ${(summary.durationMs / 1000).toFixed(2)} s = ${formatNumber(summary.eventsPerSecond)} events/s (${summary.batches} batches)\n`,
  );
  const { rows } = await db.pool.query<{ n: number }>('SELECT sum(accepted + declined)::int8 AS n FROM consent_stats_daily');
  await db.drop();
  return [
    { name: 'replay throughput', value: `${formatNumber(summary.eventsPerSecond)} events/s`, target: '≥ 100,000 events/s', pass: summary.eventsPerSecond >= 100_000 },
    { name: 'replay vs one-at-a-time baseline', value: `${(summary.eventsPerSecond / baselineRate).toFixed(1)}×`, target: 'reference', pass: true },
    { name: 'replayed totals = log', value: `${formatNumber(rows[0]!.n)} = ${formatNumber(replayEvents)}`, target: 'equal', pass: rows[0]!.n === replayEvents },
  ];
}

class StopSample extends Error {}

async function benchTimestamps(): Promise<Verdict[]> {
  process.stdout.write('\n[4/4] time-stamped seals: sealing with and without a timestamper; append p99 while the authority is down\n');
  const tsa = await startTestTimeStampingAuthority();
  const signer = signerFromPrivateKey(generateKeyPairSync('ed25519').privateKey);
  const events = 200_000;
  const sealRate = async (timestamped: boolean) => {
    const db = await createTestDatabase(timestamped ? 'bench_seal_ts' : 'bench_seal', { poolSize: 8 });
    const appender = createGroupCommitAppender(db.pool);
    const next = preparedConsents(events);
    for (let done = 0; done < events; done += 10_000) await Promise.all(Array.from({ length: 10_000 }, () => appender.append(next())));
    await appender.close();
    // Both runs read a settled table (hint bits set, statistics fresh), not the first reader's cost.
    await db.pool.query('VACUUM (ANALYZE) events');
    const timestamper = timestamped ? startTimestamper(db.pool, { tsaUrls: [tsa.url], intervalMs: 200, onError: () => undefined }) : undefined;
    const started = performance.now();
    const summary = await sealAll(db.pool, signer, { maxEvents: 2_000 });
    const seconds = (performance.now() - started) / 1000;
    await timestamper?.stop();
    const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int8 AS n FROM events WHERE type = 'SealTimestamped'`);
    await db.drop();
    return { perSecond: summary.events / seconds, seals: summary.seals, tokens: rows[0]!.n };
  };
  // Interleaved, twice each, so a slow spell of the machine hits both; each side's mean.
  const runs = [await sealRate(false), await sealRate(true), await sealRate(false), await sealRate(true)];
  const mean = (list: readonly { perSecond: number; seals: number; tokens: number }[]) => ({
    perSecond: (list[0]!.perSecond + list[1]!.perSecond) / 2,
    seals: list[0]!.seals,
    tokens: Math.min(list[0]!.tokens, list[1]!.tokens),
  });
  const plain = mean([runs[0]!, runs[2]!]);
  const stamped = mean([runs[1]!, runs[3]!]);
  process.stdout.write(`  sealing, no timestamper: ${formatNumber(plain.perSecond)} events/s (${plain.seals} seals)\n`);
  process.stdout.write(`  sealing, timestamper every 200 ms: ${formatNumber(stamped.perSecond)} events/s (${stamped.seals} seals, ${stamped.tokens} tokens)\n`);

  // Append latency with a sealer every second and, in the second run, a timestamper whose authority is down.
  tsa.behave('down');
  const appendP99 = async (withTimestamper: boolean) => {
    const db = await createTestDatabase(withTimestamper ? 'bench_p99_ts' : 'bench_p99', { poolSize: producers });
    const sealer = startSealer(db.pool, signer, { intervalMs: 1_000, onError: () => undefined });
    let failures = 0;
    const timestamper = withTimestamper ? startTimestamper(db.pool, { tsaUrls: [tsa.url], intervalMs: 1_000, onError: () => void failures++ }) : undefined;
    const appender = createGroupCommitAppender(db.pool);
    const next = preparedConsents(runSeconds * 200_000);
    const latencies: number[] = [];
    await drive(runSeconds, async () => {
      const started = performance.now();
      await appender.append(next());
      latencies.push(performance.now() - started);
    });
    await appender.close();
    await timestamper?.stop();
    await sealer.stop();
    await db.drop();
    return { ...summarise(latencies), failures };
  };
  const p99Runs = [await appendP99(false), await appendP99(true), await appendP99(false), await appendP99(true)];
  const both = (a: (typeof p99Runs)[number], b: (typeof p99Runs)[number]) => ({ p50: (a.p50 + b.p50) / 2, p99: (a.p99 + b.p99) / 2, failures: a.failures + b.failures });
  const quiet = both(p99Runs[0]!, p99Runs[2]!);
  const down = both(p99Runs[1]!, p99Runs[3]!);
  await tsa.close();
  process.stdout.write(`  append latency, no timestamper: p50 ${quiet.p50.toFixed(1)} ms, p99 ${quiet.p99.toFixed(1)} ms\n`);
  process.stdout.write(`  append latency, authority down (${down.failures} failed rounds): p50 ${down.p50.toFixed(1)} ms, p99 ${down.p99.toFixed(1)} ms\n`);
  const sealRatio = stamped.perSecond / plain.perSecond;
  const p99Ratio = down.p99 / quiet.p99;
  return [
    { name: 'sealing with time-stamping vs without', value: `${sealRatio.toFixed(2)}×`, target: '≥ 0.9×', pass: sealRatio >= 0.9 },
    { name: 'tokens recorded while sealing', value: String(stamped.tokens), target: '≥ 1', pass: stamped.tokens >= 1 },
    { name: 'append p99, authority down vs no timestamper', value: `${p99Ratio.toFixed(2)}×`, target: '≤ 1.2×', pass: p99Ratio <= 1.2 },
  ];
}

const verdicts = [
  ...(parts.has('append') ? await benchAppend() : []),
  ...(parts.has('lag') ? await benchLag() : []),
  ...(parts.has('replay') ? await benchReplay() : []),
  ...(parts.has('timestamps') ? await benchTimestamps() : []),
];
const allPass = printVerdicts('bench:ledger', verdicts);
process.exitCode = allPass ? 0 : 1;
