// `npm run bench:ingest` — consent capture's speed targets, each against a baseline in the same run:
//   1. sustained consent ingest over HTTP on loopback (100 keep-alive connections): the real ingest
//      service (group commit) vs a naive Fastify handler doing one INSERT per request; p99 latency;
//      rows in the log = 2xx answers;
//   2. widget.js load → banner visible in headless Chromium: today's widget vs widget 1 (the
//      all-or-nothing banner, built from its last commit into bench/fixtures/widget-1.js), both served
//      through the same loopback proxy, and a same-size inline script that shows a plain element (the
//      browser's own floor).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatNumber, printVerdicts, sleep, summarise, type Verdict } from './harness/harness';
import { runHttpLoad, serialiseRequest } from './harness/http-load';
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
const cliScript = fileURLToPath(new URL('../../services/server/src/cli.ts', import.meta.url));
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

const offered = ['preferences', 'analytics', 'marketing'];
const none = { preferences: false, analytics: false, marketing: false, identification: false };
const textsHash = 'c'.repeat(64);
/** What today's widget sends, purpose by purpose: Reject All, Accept All and a custom choice in turn. */
const widgetChoices = [
  { offered, purposes: none, method: 'reject_all' },
  { offered, purposes: { ...none, preferences: true, analytics: true, marketing: true }, method: 'accept_all' },
  { offered, purposes: { ...none, analytics: true }, method: 'custom' },
];

/** CPU time (user + system) the process `pid` has used so far, in microseconds (from /proc). */
function processCpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name; in clock ticks.
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100;
}

type BodyShape = 'widget-2' | 'widget-1';

async function load(port: number, website: TestWebsite, amount: number, shape: BodyShape = 'widget-2') {
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
      body: JSON.stringify(
        shape === 'widget-2'
          ? consentBodyFor(website, { choice: undefined, shownLanguage: 'en', textsHash, ...widgetChoices[index % 3] })
          : consentBodyFor(website, { choice: index % 3 === 0 ? 'declined' : 'accepted' }),
      ),
    }),
  );
  const cpuBefore = process.cpuUsage();
  const result = await runHttpLoad({ host: '127.0.0.1', port, connections, requests });
  const cpu = process.cpuUsage(cpuBefore);
  const clientCpuPerRequest = (cpu.user + cpu.system) / amount;
  return { ...result, clientCpuPerRequest };
}

async function benchHttp(): Promise<Verdict[]> {
  process.stdout.write(
    `\n[1/2] consent ingest over HTTP: ${connections} connections (infra/src/bench/http-load.ts); ${formatNumber(requests)} consents ` +
      'as today\'s widget sends them (purposes), half that many as widget 1 sent them, the one-INSERT baseline a fifth\n',
  );
  const measure = async (mode: 'group' | 'naive', shape: BodyShape, amount: number) => {
    const db = await createTestDatabase(`bench_ingest_${mode}`, { poolSize: 2 });
    const website = await addTestWebsite(db.pool);
    const server = await startServer(mode, db.connectionString, website);
    const cpuBefore = processCpuMicros(server.child.pid!);
    const result = await load(server.port, website, amount, shape);
    const serverCpuPerConsent = (processCpuMicros(server.child.pid!) - cpuBefore) / amount;
    server.child.kill('SIGTERM');
    const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int8 AS n FROM events WHERE type IN ('ConsentGiven', 'ConsentDeclined')`);
    await db.drop();
    const label = mode === 'naive' ? 'baseline (one INSERT per request)' : `ingest (group commit), ${shape === 'widget-2' ? 'purposes' : 'widget 1 bodies'}`;
    process.stdout.write(
      `  ${label}: ${formatNumber(result.perSecond)} consents/s, ` +
        `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${formatNumber(result.ok)} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors, ` +
        `${formatNumber(rows[0]!.n)} rows; server ${serverCpuPerConsent.toFixed(1)} µs CPU per consent; load generator ${result.clientCpuPerRequest.toFixed(1)} µs CPU per request\n`,
    );
    return { ...result, rows: rows[0]!.n, serverCpuPerConsent };
  };
  const naive = await measure('naive', 'widget-2', Math.ceil(requests / 5));
  const legacy = await measure('group', 'widget-1', Math.ceil(requests / 2));
  const group = await measure('group', 'widget-2', requests);
  const ratio = group.perSecond / naive.perSecond;
  const cpuRatio = group.serverCpuPerConsent / legacy.serverCpuPerConsent;
  return [
    { name: 'ingest throughput', value: `${formatNumber(group.perSecond)} consents/s`, target: '≥ 10,000 consents/s', pass: group.perSecond >= 10_000 },
    { name: 'ingest p99 latency', value: `${group.p99.toFixed(1)} ms`, target: '≤ 50 ms', pass: group.p99 <= 50 },
    { name: 'ingest vs one-INSERT baseline', value: `${ratio.toFixed(1)}×`, target: '≥ 3×', pass: ratio >= 3 },
    // CPU per consent is steadier than throughput on a shared two-core machine.
    { name: 'server CPU per consent, purposes vs widget 1 bodies', value: `${cpuRatio.toFixed(2)}×`, target: '≤ 1.10×', pass: cpuRatio <= 1.1 },
    {
      name: 'rows in the log = 2xx answers',
      value: `${formatNumber(group.rows)} = ${formatNumber(group.ok)}`,
      target: 'equal',
      pass: group.rows === group.ok && naive.rows === naive.ok && legacy.rows === legacy.ok,
    },
  ];
}

/**
 * Serves `/<version>/widget.js` from `scripts` and passes every other `/<version>/…` request on to
 * the product at `target` without the prefix: each widget takes `{host}` from its own address, so
 * both reach the same product through the same extra hop.
 */
async function startWidgetProxy(target: string, scripts: Record<string, Buffer>): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const [, version, ...rest] = (req.url ?? '/').split('/');
    const script = version ? scripts[version] : undefined;
    if (!script) return res.writeHead(404).end();
    const pathname = `/${rest.join('/')}`;
    if (pathname === '/widget.js') {
      return res.writeHead(200, { 'content-type': 'application/javascript', 'timing-allow-origin': '*', 'cache-control': 'no-store' }).end(script);
    }
    const forwarded = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: pathname, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://localhost:${typeof address === 'object' && address ? address.port : 0}`, server };
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
  const proxy = await startWidgetProxy(serviceUrl, {
    v1: readFileSync(new URL('./fixtures/widget-1.js', import.meta.url)),
    v2: readFileSync(new URL('../../widget/dist/widget.js', import.meta.url)),
  });
  const page = (script: string) => `<!doctype html><html><head><title>Bistro</title></head><body><h1>Bench Bistro</h1>${script}</body></html>`;
  const site = await serveStaticPages({
    '/widget': page(`<script src="${proxy.url}/v2/widget.js" data-embed-code="${website.embedCode}" defer></script>`),
    '/widget-1': page(`<script src="${proxy.url}/v1/widget.js" data-embed-code="${website.embedCode}" defer></script>`),
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
    return timings;
  };
  // Interleaved, so a slow spell of the machine hits both widgets alike.
  const baseline = summarise(await measure('/baseline'));
  const widgetOneFirst = await measure('/widget-1');
  const widgetFirst = await measure('/widget');
  const widgetOneSecond = await measure('/widget-1');
  const widgetSecond = await measure('/widget');
  const widgetOne = summarise([...widgetOneFirst, ...widgetOneSecond]);
  const widget = summarise([...widgetFirst, ...widgetSecond]);
  await browser.close();
  await site.close();
  await new Promise((resolve) => proxy.server.close(resolve));
  const exited = new Promise((resolve) => system.once('exit', resolve));
  system.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
  await db.drop();
  process.stdout.write(`  baseline (inline script shows a plain element): p50 ${baseline.p50.toFixed(1)} ms, p95 ${baseline.p95.toFixed(1)} ms\n`);
  process.stdout.write(`  widget 1 (config, all-or-nothing banner): p50 ${widgetOne.p50.toFixed(1)} ms, p95 ${widgetOne.p95.toFixed(1)} ms, max ${widgetOne.max.toFixed(1)} ms\n`);
  process.stdout.write(`  widget.js (config and rule, banner with preference centre): p50 ${widget.p50.toFixed(1)} ms, p95 ${widget.p95.toFixed(1)} ms, max ${widget.max.toFixed(1)} ms\n`);
  const added = widget.p50 - widgetOne.p50;
  return [
    { name: 'widget.js loaded → banner visible (p95)', value: `${widget.p95.toFixed(1)} ms`, target: '≤ 100 ms', pass: widget.p95 <= 100 },
    { name: 'banner time vs widget 1 (p50)', value: `${added >= 0 ? '+' : ''}${added.toFixed(1)} ms`, target: '≤ +25 ms', pass: added <= 25 },
    { name: 'banner vs plain element (p50)', value: `+${(widget.p50 - baseline.p50).toFixed(1)} ms`, target: 'reference', pass: true },
  ];
}

const verdicts = [...(parts.has('http') ? await benchHttp() : []), ...(parts.has('banner') ? await benchBanner() : [])];
process.exitCode = printVerdicts('bench:ingest', verdicts) ? 0 : 1;
