// `npm run bench:scan` — the cookie scanner on a 25-page local site: time per page and in total, against
// a plain page-load loop in the same run and the same browser (three fresh profiles per page, load and
// close: the browser's own floor, so the difference is the scanner's overhead), and the memory of the
// scanning process and its Chromium.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { formatNumber, printVerdicts, readRssBytes, summarise, treeRssBytes } from './harness/harness';
import { launchScannerBrowser } from '@consentry/jobs';
import { scanWebsite } from '@consentry/jobs';

const { values: args } = parseArgs({ options: { pages: { type: 'string', default: '25' } } });
const pageCount = Number(args.pages);
const domain = 'bench.example.test';

// A page as an owner's site has them: some text, an image, a script setting a first-party cookie
// before consent and one after, links to every page, and a banner with the widget's structure.
const banner = `<script>
customElements.define('consentry-widget', class extends HTMLElement {});
const host = document.createElement('consentry-widget'); document.body.prepend(host);
const root = host.attachShadow({ mode: 'open' });
root.innerHTML = '<div id="b" role="dialog"><p>Cookies?</p><div class="a"><button>Customize</button><button>Reject</button><button>Accept</button><button hidden>Close</button></div></div>';
const [, reject, accept] = root.querySelectorAll('button');
accept.onclick = () => { localStorage.setItem('choice', 'yes'); root.getElementById('b').hidden = true; };
reject.onclick = () => { localStorage.setItem('choice', 'no'); root.getElementById('b').hidden = true; };
if (localStorage.getItem('choice')) root.getElementById('b').hidden = true;
if (localStorage.getItem('choice') === 'yes') document.cookie = '_fbp=fb.1.2.3; path=/';
</script>`;
const page = (index: number) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${index}</title>
<script>document.cookie = '_ga=GA1.1.1.1; path=/; max-age=63072000';</script></head><body>
<h1>Page ${index}</h1><p>${'Fresh bread and pastries, baked every morning. '.repeat(40)}</p>
<img src="/logo.svg" alt="" width="64" height="64">
<nav>${Array.from({ length: pageCount }, (_, n) => `<a href="/p/${n}">Page ${n}</a>`).join(' ')}</nav>
${banner}</body></html>`;
const logo = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>';

const server = createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0]!;
  if (path === '/logo.svg') return response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(logo);
  if (path === '/sitemap.xml') return response.writeHead(404).end();
  const match = /^\/(?:p\/(\d+))?$/.exec(path);
  if (!match) return response.writeHead(404, { 'content-type': 'text/html' }).end('<p>Not found</p>');
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(Number(match[1] ?? 0)));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const rootUrl = `http://www.${domain}:${port}/`;

/** Resident memory (bytes) of this process and of every process below it (Chromium's). */
function treeRss(): { self: number; browser: number } {
  const self = readRssBytes(process.pid);
  return { self, browser: treeRssBytes(process.pid) - self };
}

let peak = { self: 0, browser: 0 };
const sampler = setInterval(() => {
  const now = treeRss();
  peak = { self: Math.max(peak.self, now.self), browser: Math.max(peak.browser, now.browser) };
}, 250);

const browser = await launchScannerBrowser();
const pageUrls = [rootUrl, ...Array.from({ length: pageCount - 1 }, (_, n) => `${rootUrl}p/${n + 1}`)];

process.stdout.write(`\nbench:scan — ${pageCount} pages on loopback, three visits per page\n`);
// The floor: the same pages, three fresh profiles each, loaded and closed; no proxy, no scanning.
const plainStarted = performance.now();
const plainPerPage: number[] = [];
for (const url of pageUrls) {
  const started = performance.now();
  await Promise.all(
    [0, 1, 2].map(async () => {
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(url.replace(`www.${domain}`, '127.0.0.1'), { waitUntil: 'load' });
      await context.close();
    }),
  );
  plainPerPage.push(performance.now() - started);
}
const plainTotal = performance.now() - plainStarted;

const scanPerPage: number[] = [];
let last = performance.now();
const scanStarted = performance.now();
const observation = await scanWebsite(browser, {
  rootUrl,
  domain,
  maxPages: pageCount,
  lookup: async () => [{ address: '127.0.0.1', family: 4 }],
  isAllowedAddress: (host) => host.endsWith('.example.test'),
  onProgress: () => {
    const now = performance.now();
    scanPerPage.push(now - last);
    last = now;
  },
});
const scanTotal = performance.now() - scanStarted;
clearInterval(sampler);
await browser.close();
server.close();

const plain = summarise(plainPerPage);
const scan = summarise(scanPerPage);
const mb = (bytes: number) => `${formatNumber(bytes / 1024 / 1024)} MB`;
process.stdout.write(`  plain page loads: ${(plainTotal / 1000).toFixed(1)} s in all, per page p50 ${plain.p50.toFixed(0)} ms, p95 ${plain.p95.toFixed(0)} ms\n`);
process.stdout.write(
  `  scanner: ${observation.pages.length} pages in ${(scanTotal / 1000).toFixed(1)} s, per page p50 ${scan.p50.toFixed(0)} ms, p95 ${scan.p95.toFixed(0)} ms` +
    ` (it waits for the network to go quiet, for the banner, and reloads after each choice)\n`,
);
process.stdout.write(`  memory at peak: this process ${mb(peak.self)}, Chromium ${mb(peak.browser)}\n`);
const ok = printVerdicts('bench:scan', [
  { name: 'pages scanned', value: `${observation.pages.length} of ${pageCount}`, target: 'all', pass: observation.pages.length === pageCount },
  { name: 'scan time per page (p50)', value: `${scan.p50.toFixed(0)} ms`, target: 'reference', pass: true },
  { name: 'scanner vs plain page loads (total)', value: `${(scanTotal / plainTotal).toFixed(1)}×`, target: 'reference', pass: true },
  { name: 'scanning process peak memory', value: mb(peak.self), target: '≤ 300 MB', pass: peak.self <= 300 * 1024 * 1024 },
]);
process.exit(ok ? 0 : 1);
