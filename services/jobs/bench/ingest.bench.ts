// `npm run bench:ingest` — consent capture's speed targets, each against a baseline in the same run:
//   1. sustained consent ingest over HTTP on loopback (100 keep-alive connections): the real ingest
//      service (group commit) vs a naive Fastify handler doing one INSERT per request; p99 latency;
//      rows in the log = 2xx answers;
//   2. widget.js load → banner visible in headless Chromium, vs a same-size inline script that
//      shows a plain element (the browser's own floor).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatNumber, printVerdicts, sleep, summarise, type Verdict } from '@consentry/infra/bench';
import { runHttpLoad, serialiseRequest } from '@consentry/infra/bench/http-load';
import { createTestDatabase, freePort, launchChromium, serveStaticPages } from '@consentry/infra/testing';
import { addTestWebsite, consentBodyFor, type TestWebsite } from '@consentry/ingest/testing';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    connections: { type: 'string', default: '100' },
    only: { type: 'string', default: 'http,banner' },
  },
});
// A fixed number of requests rather than a duration: every request sent gets its answer counted,
// so rows in the log can be compared with 2xx answers exactly.
const requests = Number(args.requests);
const connections = Number(args.connections);
const parts = new Set(args.only.split(','));
const serverScript = fileURLToPath(new URL('./ingest-server.ts', import.meta.url));
const cliScript = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const origin = 'https://www.shop.example.test';

/** A TypeScript script of ours in a process of its own, once it printed `ready` on stdout. */
async function spawnScript(script: string, args: string[], env: Record<string, string>, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes(ready) && resolve());
    child.once('exit', (code) => reject(new Error(`${path.basename(script)} ${args.join(' ')} exited with ${code}`)));
  });
  return child;
}

async function startServer(mode: 'group' | 'naive', databaseUrl: string, website: TestWebsite): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = await spawnScript(serverScript, [], { DATABASE_URL: databaseUrl, PORT: String(port), MODE: mode, WEBSITE_ID: website.id }, 'READY');
  return { port, child };
}

async function load(port: number, website: TestWebsite, amount: number) {
  const addresses = Array.from({ length: 256 }, (_, index) => `81.2.${index}.${(index * 7) % 250}`);
  // Every request serialised ahead of time, each with its own event id: the load generator shares
  // the machine's two cores with the server under test, so it must cost as little as possible.
  const requests = Array.from({ length: amount }, (_, index) =>
    serialiseRequest({
      method: 'POST',
      host: `127.0.0.1:${port}`,
      path: '/api/collect/consent',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        origin,
        'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36',
        'x-forwarded-for': addresses[index % addresses.length]!,
      },
      body: JSON.stringify(consentBodyFor(website, { choice: index % 3 === 0 ? 'declined' : 'accepted' })),
    }),
  );
  const cpuBefore = process.cpuUsage();
  const result = await runHttpLoad({ host: '127.0.0.1', port, connections, requests });
  const cpu = process.cpuUsage(cpuBefore);
  const clientCpuPerRequest = (cpu.user + cpu.system) / amount;
  return { ...result, clientCpuPerRequest };
}

async function benchHttp(): Promise<Verdict[]> {
  process.stdout.write(`\n[1/2] consent ingest over HTTP: ${connections} connections (infra/src/bench/http-load.ts); ${formatNumber(requests)} consents, baseline a fifth of that\n`);
  const measure = async (mode: 'group' | 'naive') => {
    const db = await createTestDatabase(`bench_ingest_${mode}`, { poolSize: 2 });
    const website = await addTestWebsite(db.pool);
    const server = await startServer(mode, db.connectionString, website);
    const result = await load(server.port, website, mode === 'group' ? requests : Math.ceil(requests / 5));
    server.child.kill('SIGTERM');
    const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int8 AS n FROM events WHERE type IN ('ConsentGiven', 'ConsentDeclined')`);
    await db.drop();
    process.stdout.write(
      `  ${mode === 'group' ? 'ingest (group commit)' : 'baseline (one INSERT per request)'}: ${formatNumber(result.perSecond)} consents/s, ` +
        `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${formatNumber(result.ok)} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors, ` +
        `${formatNumber(rows[0]!.n)} rows; load generator ${result.clientCpuPerRequest.toFixed(1)} µs CPU per request\n`,
    );
    return { ...result, rows: rows[0]!.n };
  };
  const naive = await measure('naive');
  const group = await measure('group');
  const ratio = group.perSecond / naive.perSecond;
  return [
    { name: 'ingest throughput', value: `${formatNumber(group.perSecond)} consents/s`, target: '≥ 10,000 consents/s', pass: group.perSecond >= 10_000 },
    { name: 'ingest p99 latency', value: `${group.p99.toFixed(1)} ms`, target: '≤ 50 ms', pass: group.p99 <= 50 },
    { name: 'ingest vs one-INSERT baseline', value: `${ratio.toFixed(1)}×`, target: '≥ 3×', pass: ratio >= 3 },
    { name: 'rows in the log = 2xx answers', value: `${formatNumber(group.rows)} = ${formatNumber(group.ok)}`, target: 'equal', pass: group.rows === group.ok && naive.rows === naive.ok },
  ];
}

async function benchBanner(): Promise<Verdict[]> {
  const runs = 30;
  process.stdout.write(`\n[2/2] widget.js loaded → banner visible, headless Chromium, ${runs} fresh visits each\n`);
  const db = await createTestDatabase('bench_banner');
  const port = await freePort();
  const serviceUrl = `http://localhost:${port}`;
  // The whole product as it runs in production, `consentry start`, in a process of its own: not
  // sharing an event loop with this harness and its Playwright client.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'consentry-bench-'));
  const system = await spawnScript(
    cliScript,
    ['start'],
    {
      DATABASE_URL: db.connectionString,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: serviceUrl,
      LOG_LEVEL: 'error',
      GEOIP: 'none',
      DATA_DIR: dataDir,
      ADMIN_USERNAME: 'bench',
      ADMIN_PASSWORD: 'bench admin password',
    },
    'Consentry is running at',
  );
  const website = await addTestWebsite(db.pool, { companyName: 'Bench Bistro' });
  const page = (script: string) => `<!doctype html><html><head><title>Bistro</title></head><body><h1>Bench Bistro</h1>${script}</body></html>`;
  const site = await serveStaticPages({
    '/widget': page(`<script src="${serviceUrl}/widget.js" data-embed-code="${website.embedCode}" defer></script>`),
    '/baseline': page(`<script src="${serviceUrl}/api/widget/config/${website.embedCode}" type="text/plain" id="unused"></script>
      <script>addEventListener('DOMContentLoaded', () => { const d = document.createElement('div'); d.id = 'plain-banner'; d.textContent = 'We use cookies'; document.body.append(d); })</script>`),
  });
  const browser = await launchChromium();
  // Recorded inside the page: when widget.js finished loading (resource timing), and the first
  // animation frame in which the banner dialog is displayed. The page reports it on the console: the
  // harness must not run anything in the page while it is measured (Playwright's waitForFunction
  // injects its own script, tens of milliseconds of main-thread work, right when the widget renders).
  // Plain script text: functions passed from here would carry the TypeScript loader's helpers.
  const probe = `
    (() => {
      const started = performance.now();
      const check = () => {
        const host = document.querySelector('consentry-widget');
        const dialog = host && host.shadowRoot && host.shadowRoot.querySelector('[role="dialog"]');
        const plain = document.getElementById('plain-banner');
        if ((dialog && !dialog.hidden && dialog.getBoundingClientRect().height > 0) || plain) {
          const script = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('/widget.js'));
          console.debug('consentry-bench-visible ' + (performance.now() - (script ? script.responseEnd : started)));
          return;
        }
        requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    })();`;
  const measure = async (path: string) => {
    const timings: number[] = [];
    for (let run = 0; run < runs; run++) {
      // A fresh profile per visit: nothing stored, nothing cached. Chromium opens a new window for it
      // (its browser UI loads in renderers of its own); the visit starts once that has settled, as a
      // visitor's browser is already open when they come to the site.
      const context = await browser.newContext();
      await context.addInitScript({ content: probe });
      const tab = await context.newPage();
      await sleep(1000);
      const visible = tab.waitForEvent('console', { predicate: (message) => message.text().startsWith('consentry-bench-visible '), timeout: 10_000 });
      await tab.goto(`http://www.${website.domain}:${site.port}${path}`);
      timings.push(Number((await visible).text().split(' ')[1]));
      await context.close();
    }
    return summarise(timings);
  };
  const baseline = await measure('/baseline');
  const widget = await measure('/widget');
  await browser.close();
  await site.close();
  const exited = new Promise((resolve) => system.once('exit', resolve));
  system.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
  await db.drop();
  process.stdout.write(`  baseline (inline script shows a plain element): p50 ${baseline.p50.toFixed(1)} ms, p95 ${baseline.p95.toFixed(1)} ms\n`);
  process.stdout.write(`  widget.js (fetches its config, renders the banner): p50 ${widget.p50.toFixed(1)} ms, p95 ${widget.p95.toFixed(1)} ms, max ${widget.max.toFixed(1)} ms\n`);
  return [
    { name: 'widget.js loaded → banner visible (p95)', value: `${widget.p95.toFixed(1)} ms`, target: '≤ 100 ms', pass: widget.p95 <= 100 },
    { name: 'banner vs plain element (p50)', value: `+${(widget.p50 - baseline.p50).toFixed(1)} ms`, target: 'reference', pass: true },
  ];
}

const verdicts = [...(parts.has('http') ? await benchHttp() : []), ...(parts.has('banner') ? await benchBanner() : [])];
process.exitCode = printVerdicts('bench:ingest', verdicts) ? 0 : 1;
