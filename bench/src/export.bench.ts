// `npm run bench:export` — exporting 1,000,000 consent records: rows/s and the server's peak RSS
// (targets ≥ 100,000 rows/s, ≤ 200 MB), streamed from a cursor, against a baseline in the same run
// that loads every record and builds the file in memory before sending it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatNumber, printVerdicts, type Verdict } from './harness/harness';
import { createTestDatabase, freePort } from '@consentry/infra/testing';
import { addTestWebsite } from '@consentry/ingest/testing';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '1000000' } } });
const rows = Number(args.rows);
const serverScript = fileURLToPath(new URL('./export-server.ts', import.meta.url));

const db = await createTestDatabase('bench_export', { poolSize: 2 });
const websites = await Promise.all(Array.from({ length: 20 }, (_, index) => addTestWebsite(db.pool, { domain: `site${index}.example.test` })));
process.stdout.write(`\nloading ${formatNumber(rows)} consent records…\n`);
for (let offset = 0; offset < rows; offset += 250_000) {
  await db.pool.query(
    `INSERT INTO consent_records (event_id, website_id, visitor_id, choice, source, policy_version, received_at, occurred_at,
                                  ip_address, user_agent, device_class, country, city, email, page_url, language)
     SELECT gen_random_uuid(), ($1::uuid[])[1 + n % 20], gen_random_uuid()::text, CASE WHEN n % 3 = 0 THEN 'declined' ELSE 'accepted' END,
            'banner', '1', timestamptz '2026-01-01' + n * interval '1 second', timestamptz '2026-01-01' + n * interval '1 second',
            '203.0.113.0', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36', 'mobile',
            'DE', 'Berlin', NULL, 'https://www.example.test/menu', 'de-DE'
       FROM generate_series($2::int, $3::int) AS n`,
    [websites.map((website) => website.id), offset, Math.min(rows, offset + 250_000) - 1],
  );
}
await db.pool.query('VACUUM ANALYZE consent_records');

async function measure(mode: 'stream' | 'naive') {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', serverScript], {
    env: { ...process.env, DATABASE_URL: db.connectionString, PORT: String(port), MODE: mode },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  while (!output.includes('READY')) await new Promise((resolve) => setTimeout(resolve, 20));
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/api/export/consents?format=csv`);
  let lines = 0;
  let bytes = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (const byte of value) if (byte === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  const maxRss = Number(/MAXRSS=(\d+)/.exec(output)?.[1] ?? Number.NaN);
  const exported = lines - 1;
  process.stdout.write(
    `  ${mode === 'stream' ? 'streamed export' : 'baseline (all in memory)'}: ${formatNumber(exported)} rows, ${formatNumber(bytes / 1e6, 1)} MB in ${seconds.toFixed(2)} s = ` +
      `${formatNumber(exported / seconds)} rows/s, peak RSS ${formatNumber(maxRss / 1024 / 1024)} MB\n`,
  );
  return { exported, rowsPerSecond: exported / seconds, maxRssMb: maxRss / 1024 / 1024 };
}

const baseline = await measure('naive');
const streamed = await measure('stream');
await db.drop();
const verdicts: Verdict[] = [
  { name: 'export throughput', value: `${formatNumber(streamed.rowsPerSecond)} rows/s`, target: '≥ 100,000 rows/s', pass: streamed.rowsPerSecond >= 100_000 },
  { name: 'export peak RSS', value: `${formatNumber(streamed.maxRssMb)} MB`, target: '≤ 200 MB', pass: streamed.maxRssMb <= 200 },
  { name: 'peak RSS vs in-memory baseline', value: `${(streamed.maxRssMb / baseline.maxRssMb).toFixed(2)}×`, target: 'reference', pass: true },
  { name: 'every record exported', value: `${formatNumber(streamed.exported)} = ${formatNumber(rows)}`, target: 'equal', pass: streamed.exported === rows && baseline.exported === rows },
];
process.exitCode = printVerdicts('bench:export', verdicts) ? 0 : 1;
