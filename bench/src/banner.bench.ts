// `npm run bench:banner` — issue 29's peer benchmark: Consentry's banner against vanilla-cookieconsent
// 3.1.0 and Klaro 0.7.22 on the same article page (a heading, text and a 100 KB hero image), in one
// headless Chromium run, visits interleaved, unthrottled and with the CPU throttled 4× (a mid-range
// phone). The peers are configured as Consentry is: four categories (necessary, preferences,
// analytics, marketing), Accept and Reject equal, English; they are served gzipped, cacheable, from a
// CDN-like host of their own (loopback), and Consentry from the product itself (`consentry start`,
// compiled), as a site would embed it. A page without a banner is the baseline for LCP and TBT.
//
// Per banner, medians and p95 of: bytes transferred for the banner (every response but the page and
// its image, as the network received them), requests before the banner shows, banner visible (ms
// after navigation start), total blocking time (long tasks after first contentful paint, minus 50 ms
// each), LCP added (against the page without a banner), CLS, and Accept All click → next paint. It
// exits non-zero when one of the issue's targets is missed:
//   bytes ≤ 0.6× the lightest peer; banner visible ≤ 0.8× the fastest peer; TBT ≤ the lowest peer's;
//   LCP added ≤ the lowest peer's; CLS 0; click → next paint ≤ the fastest peer's.
// Options: --visits N (per banner and throttle setting, default 20), --throttle 1,4.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import {
  createTestDatabase,
  freePort,
  launchChromium,
} from "@consentry/infra/testing";
import { addTestWebsite } from "@consentry/ingest/testing";
import {
  printVerdicts,
  sleep,
  summarise,
  type Verdict,
} from "./harness/harness";

const { values: args } = parseArgs({
  options: {
    visits: { type: "string", default: "20" },
    throttle: { type: "string", default: "1,4" },
  },
});
const visits = Number(args.visits);
const throttles = args.throttle.split(",").map(Number);
if (
  !Number.isInteger(visits) ||
  visits < 1 ||
  throttles.some((rate) => !(rate >= 1 && rate <= 20))
) {
  throw new Error("usage: bench:banner [--visits N] [--throttle 1,4]");
}

const binScript = fileURLToPath(
  new URL("../../services/server/bin/consentry.mjs", import.meta.url),
);
const moduleFile = (spec: string) => fileURLToPath(import.meta.resolve(spec));

type Kind = "none" | "consentry" | "vanilla" | "klaro";
type Banner = Exclude<Kind, "none">;
const banners: readonly Banner[] = ["consentry", "vanilla", "klaro"];
const peers: readonly Banner[] = ["vanilla", "klaro"];
const label: Record<Kind, string> = {
  none: "no banner",
  consentry: "Consentry",
  vanilla: "vanilla-cookieconsent 3.1.0",
  klaro: "Klaro 0.7.22",
};

// ---------------------------------------------------------------------------------------------
// The pages and the CDN-like host

/** A 100 KB hero image: an uncompressed 24-bit BMP of noise (no format's compression helps it). */
function heroImage(): Buffer {
  const width = 240;
  const height = 142;
  const rowBytes = Math.ceil((width * 3) / 4) * 4;
  const pixels = rowBytes * height;
  const file = Buffer.alloc(54 + pixels);
  file.write("BM", 0);
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(54, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(height, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  file.writeUInt32LE(pixels, 34);
  let seed = 42;
  for (let i = 54; i < file.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    file[i] = seed >> 16;
  }
  return file;
}

const paragraph =
  "The harbour wakes before the town does. Boats come in with the night’s catch, the market sets out its tables, and by seven the first " +
  "coffee is poured at the corner café. This article walks through a morning there, stall by stall, with the people who keep it running.";

function articlePage(head: string, body = ""): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A morning at the harbour</title>
<style>body{font:18px/1.6 Georgia,serif;max-width:760px;margin:0 auto;padding:24px;color:#222}img{display:block;width:100%;height:auto;aspect-ratio:240/142}</style>
${head}</head><body><article><h1>A morning at the harbour</h1>
<img src="/hero.bmp" width="240" height="142" alt="Boats in the harbour at dawn">
${Array.from({ length: 6 }, () => `<p>${paragraph}</p>`).join("\n")}</article>${body}</body></html>`;
}

/** Texts every banner shows (English), with Accept and Reject as equals. */
const texts = {
  title: "We use cookies",
  description:
    "We use cookies to remember your preferences, measure visits and show relevant ads. Choose what you allow.",
  acceptAll: "Accept All",
  rejectAll: "Reject All",
  customize: "Customize",
};
const categories = [
  {
    id: "necessary",
    title: "Necessary",
    description: "Needed for the site to work.",
  },
  {
    id: "preferences",
    title: "Preferences",
    description: "Remember your settings.",
  },
  {
    id: "analytics",
    title: "Analytics",
    description: "Count visits and measure the site.",
  },
  {
    id: "marketing",
    title: "Marketing",
    description: "Show ads that suit you.",
  },
];

function vanillaTranslation(): string {
  return JSON.stringify({
    consentModal: {
      title: texts.title,
      description: texts.description,
      acceptAllBtn: texts.acceptAll,
      acceptNecessaryBtn: texts.rejectAll,
      showPreferencesBtn: texts.customize,
    },
    preferencesModal: {
      title: "Cookie preferences",
      acceptAllBtn: texts.acceptAll,
      acceptNecessaryBtn: texts.rejectAll,
      savePreferencesBtn: "Save",
      closeIconLabel: "Close",
      sections: categories.map((category) => ({
        title: category.title,
        description: category.description,
        linkedCategory: category.id,
      })),
    },
  });
}

function vanillaPage(cdn: string): string {
  const config = {
    // Its default hides the banner from automated browsers (navigator.webdriver), which this is.
    hideFromBots: false,
    guiOptions: {
      consentModal: {
        layout: "box",
        position: "bottom right",
        equalWeightButtons: true,
      },
    },
    categories: {
      necessary: { enabled: true, readOnly: true },
      preferences: {},
      analytics: {},
      marketing: {},
    },
    language: { default: "en", translations: { en: `${cdn}/vanilla/en.json` } },
  };
  return articlePage(
    `<link rel="stylesheet" href="${cdn}/vanilla/cookieconsent.css">`,
    `<script src="${cdn}/vanilla/cookieconsent.umd.js" defer></script>
<script>addEventListener('DOMContentLoaded', () => CookieConsent.run(${JSON.stringify(config)}));</script>`,
  );
}

function klaroConfig(): string {
  const config = {
    version: 1,
    elementID: "klaro",
    styling: { theme: ["light", "bottom", "wide"] },
    noticeAsModal: false,
    mustConsent: false,
    acceptAll: true,
    hideDeclineAll: false,
    hideLearnMore: false,
    default: false,
    lang: "en",
    translations: {
      en: {
        consentNotice: {
          title: texts.title,
          description: texts.description,
          learnMore: texts.customize,
        },
        ok: texts.acceptAll,
        decline: texts.rejectAll,
        acceptAll: texts.acceptAll,
        purposes: Object.fromEntries(
          categories
            .slice(1)
            .map((category) => [
              category.id,
              { title: category.title, description: category.description },
            ]),
        ),
      },
    },
    services: categories
      .slice(1)
      .map((category) => ({
        name: `${category.id}-tools`,
        title: category.title,
        purposes: [category.id],
      })),
  };
  return `var klaroConfig = ${JSON.stringify(config)};`;
}

function klaroPage(cdn: string): string {
  return articlePage(
    `<link rel="stylesheet" href="${cdn}/klaro/klaro.min.css">`,
    `<script src="${cdn}/klaro/config.js" defer></script><script src="${cdn}/klaro/klaro-no-css.js" defer></script>`,
  );
}

interface Served {
  readonly body: Buffer;
  readonly gzip: Buffer;
  readonly type: string;
}

/** A CDN-like static host: gzip when asked, cacheable for a year, open to every origin. */
async function serveCdn(
  files: Record<string, { body: string | Buffer; type: string }>,
): Promise<{ url: string; server: Server }> {
  const served = new Map<string, Served>();
  for (const [name, file] of Object.entries(files)) {
    const body = Buffer.isBuffer(file.body)
      ? file.body
      : Buffer.from(file.body);
    served.set(name, {
      body,
      gzip: gzipSync(body, { level: 9 }),
      type: file.type,
    });
  }
  const server = createServer((request, response) => {
    const file = served.get(new URL(request.url ?? "/", "http://x").pathname);
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    const gzip = /\bgzip\b/.test(
      String(request.headers["accept-encoding"] ?? ""),
    );
    response.writeHead(200, {
      "content-type": file.type,
      "cache-control": "public, max-age=31536000, immutable",
      "access-control-allow-origin": "*",
      vary: "Accept-Encoding",
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    });
    response.end(gzip ? file.gzip : file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://cdn.example.test:${(server.address() as AddressInfo).port}`,
    server,
  };
}

/** The owner's site: the article with each banner, and its image. Pages are not cached. */
async function serveSite(
  pages: Record<string, string>,
  hero: Buffer,
): Promise<{ port: number; server: Server }> {
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? "/", "http://x").pathname;
    if (pathname === "/hero.bmp") {
      response
        .writeHead(200, {
          "content-type": "image/bmp",
          "cache-control": "no-store",
        })
        .end(hero);
      return;
    }
    const page = pages[pathname];
    if (page === undefined) {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
      })
      .end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

// ---------------------------------------------------------------------------------------------
// Measuring one visit

/**
 * Runs in the page before anything else (plain script text). Watches, each animation frame, for the
 * banner's first layer to be displayed and reports the time on the console; collects LCP, layout
 * shifts and long tasks; and times Accept All from the click event to the next paint (a frame, then
 * a task after it). Reporting on the console keeps the harness out of the page while it is measured.
 */
function probe(kind: Kind): string {
  return `
(() => {
  const kind = ${JSON.stringify(kind)};
  const m = (window.__bench = { lcp: 0, cls: 0, longTasks: [], fcp: 0 });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) m.lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) m.cls += e.value; }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) m.longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') m.fcp = e.startTime; }).observe({ type: 'paint', buffered: true });
  const shown = (element) => {
    if (!element || element.hidden) return false;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return box.height > 0 && box.width > 0 && style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0;
  };
  const banner = () => {
    if (kind === 'consentry') { const host = document.querySelector('consentry-widget'); return host && host.shadowRoot && host.shadowRoot.getElementById('b'); }
    if (kind === 'vanilla') return document.querySelector('#cc-main .cm');
    if (kind === 'klaro') return document.querySelector('.klaro .cookie-notice');
    return null;
  };
  if (kind !== 'none') {
    const check = () => {
      if (shown(banner())) { console.debug('bench-visible ' + performance.now()); return; }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }
  addEventListener('click', (event) => {
    const clicked = event.timeStamp;
    requestAnimationFrame(() => setTimeout(() => console.debug('bench-click-paint ' + (performance.now() - clicked)), 0));
  }, { capture: true, once: true });
})();`;
}

const acceptSelector: Record<Banner, string> = {
  consentry: 'consentry-widget #b button:has-text("Accept All")',
  vanilla: '#cc-main .cm button[data-role="all"]',
  klaro: ".klaro .cookie-notice .cm-btn-success",
};

interface Visit {
  readonly bytes: number;
  readonly requestsBefore: number;
  readonly visible: number;
  readonly tbt: number;
  readonly lcp: number;
  readonly cls: number;
  readonly clickToPaint: number;
}

async function visit(
  browser: Browser,
  kind: Kind,
  url: string,
  rate: number,
): Promise<Visit> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
  });
  try {
    await context.addInitScript({ content: probe(kind) });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    if (rate > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate });
    const requests = new Map<
      string,
      { url: string; sentAt: number; bytes: number }
    >();
    cdp.on(
      "Network.requestWillBeSent",
      (event) =>
        void requests.set(event.requestId, {
          url: event.request.url,
          sentAt: event.timestamp,
          bytes: 0,
        }),
    );
    cdp.on("Network.loadingFinished", (event) => {
      const request = requests.get(event.requestId);
      if (request) request.bytes = event.encodedDataLength;
    });
    // Chromium opens a window for the fresh profile; the visit starts once that has settled.
    await sleep(500);
    const visibleMessage =
      kind === "none"
        ? undefined
        : page.waitForEvent("console", {
            predicate: (message) => message.text().startsWith("bench-visible "),
            timeout: 30_000,
          });
    await page.goto(url, { waitUntil: "load" });
    const visible = visibleMessage
      ? Number(
          (
            await visibleMessage.catch((error: unknown) => {
              throw new Error(
                `${label[kind]}: the banner did not show at ${url}`,
                { cause: error },
              );
            })
          )
            .text()
            .split(" ")[1],
        )
      : 0;
    // Long tasks and layout shifts the banner causes come around its first frame; let them land.
    await sleep(1500 * Math.min(rate, 2));
    const measured = (await page.evaluate("window.__bench")) as {
      lcp: number;
      cls: number;
      fcp: number;
      longTasks: Array<[number, number]>;
    };
    const tbt = measured.longTasks
      .filter(([start]) => start >= measured.fcp)
      .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);

    const all = [...requests.values()];
    const documentRequest = all.find((request) => request.url === url);
    const bannerRequests = all.filter(
      (request) =>
        request !== documentRequest &&
        !request.url.endsWith("/hero.bmp") &&
        !request.url.endsWith("/favicon.ico"),
    );
    const startedAt = documentRequest?.sentAt ?? 0;
    const requestsBefore = bannerRequests.filter(
      (request) => (request.sentAt - startedAt) * 1000 <= visible,
    ).length;
    const bytes = bannerRequests.reduce(
      (sum, request) => sum + request.bytes,
      0,
    );

    let clickToPaint = 0;
    if (kind !== "none") {
      const painted = page.waitForEvent("console", {
        predicate: (message) => message.text().startsWith("bench-click-paint "),
        timeout: 30_000,
      });
      await page.locator(acceptSelector[kind]).first().click();
      clickToPaint = Number((await painted).text().split(" ")[1]);
    }
    return {
      bytes,
      requestsBefore,
      visible,
      tbt,
      lcp: measured.lcp,
      cls: measured.cls,
      clickToPaint,
    };
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The run

async function startProduct(
  databaseUrl: string,
): Promise<{ url: string; child: ChildProcess; dataDir: string }> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "consentry-bench-banner-"));
  const child = spawn(process.execPath, [binScript, "start"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      LOG_LEVEL: "error",
      GEOIP: "none",
      DATA_DIR: dataDir,
      ADMIN_USERNAME: "bench",
      ADMIN_PASSWORD: "bench admin password",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on(
      "data",
      (chunk: Buffer) =>
        chunk.toString().includes("Consentry is running at") && resolve(),
    );
    child.once("exit", (code) =>
      reject(new Error(`consentry start exited with ${code}`)),
    );
  });
  return { url, child, dataDir };
}

const db = await createTestDatabase("bench_banner_peers");
const product = await startProduct(db.connectionString);
const website = await addTestWebsite(db.pool, {
  companyName: "Harbour Journal",
});
const klaroDist = path.dirname(moduleFile("klaro/dist/klaro-no-css.js"));
const vanillaDist = path.dirname(
  moduleFile("vanilla-cookieconsent/dist/cookieconsent.umd.js"),
);
const cdn = await serveCdn({
  "/vanilla/cookieconsent.umd.js": {
    body: readFileSync(path.join(vanillaDist, "cookieconsent.umd.js")),
    type: "text/javascript",
  },
  "/vanilla/cookieconsent.css": {
    body: readFileSync(path.join(vanillaDist, "cookieconsent.css")),
    type: "text/css",
  },
  "/vanilla/en.json": { body: vanillaTranslation(), type: "application/json" },
  "/klaro/klaro-no-css.js": {
    body: readFileSync(path.join(klaroDist, "klaro-no-css.js")),
    type: "text/javascript",
  },
  "/klaro/klaro.min.css": {
    body: readFileSync(path.join(klaroDist, "klaro.min.css")),
    type: "text/css",
  },
  "/klaro/config.js": { body: klaroConfig(), type: "text/javascript" },
});
const site = await serveSite(
  {
    "/none": articlePage(""),
    "/consentry": articlePage(
      "",
      `<script src="${product.url}/widget.js" data-embed-code="${website.embedCode}" data-position="bottom" data-theme="light" defer></script>`,
    ),
    "/vanilla": vanillaPage(cdn.url),
    "/klaro": klaroPage(cdn.url),
  },
  heroImage(),
);
const browser = await launchChromium();
const kinds: readonly Kind[] = ["none", ...banners];
const results = new Map<string, Visit[]>();
const key = (kind: Kind, rate: number) => `${kind}@${rate}`;

try {
  for (const rate of throttles) {
    process.stdout.write(
      `\nCPU ${rate === 1 ? "unthrottled" : `throttled ${rate}×`}: ${visits} fresh visits per page, interleaved\n`,
    );
    for (let round = 0; round < visits; round++) {
      // Rotated each round, so no banner always follows the same one.
      const order = kinds.map(
        (_, index) => kinds[(index + round) % kinds.length]!,
      );
      for (const kind of order) {
        const list = results.get(key(kind, rate)) ?? [];
        list.push(
          await visit(
            browser,
            kind,
            `http://www.${website.domain}:${site.port}/${kind}`,
            rate,
          ),
        );
        results.set(key(kind, rate), list);
      }
      process.stdout.write(".");
    }
    process.stdout.write("\n");
  }
} finally {
  await browser.close();
  cdn.server.close();
  site.server.close();
  const exited = new Promise((resolve) => product.child.once("exit", resolve));
  product.child.kill("SIGTERM");
  await exited;
  rmSync(product.dataDir, { recursive: true, force: true });
  await db.drop();
}

// ---------------------------------------------------------------------------------------------
// The report

type Metric = keyof Visit;
const median = (kind: Kind, rate: number, metric: Metric) =>
  summarise(results.get(key(kind, rate))!.map((v) => v[metric])).p50;
const p95 = (kind: Kind, rate: number, metric: Metric) =>
  summarise(results.get(key(kind, rate))!.map((v) => v[metric])).p95;
const lcpAdded = (kind: Banner, rate: number, at: "p50" | "p95" = "p50") =>
  summarise(results.get(key(kind, rate))!.map((v) => v.lcp))[at] -
  summarise(results.get(key("none", rate))!.map((v) => v.lcp)).p50;

const rows: Array<{
  name: string;
  metric: Metric | "lcpAdded";
  unit: string;
  digits: number;
}> = [
  {
    name: "bytes transferred for the banner",
    metric: "bytes",
    unit: " KB",
    digits: 1,
  },
  {
    name: "requests before the banner shows",
    metric: "requestsBefore",
    unit: "",
    digits: 0,
  },
  { name: "banner visible", metric: "visible", unit: " ms", digits: 0 },
  { name: "total blocking time", metric: "tbt", unit: " ms", digits: 0 },
  { name: "LCP added to the page", metric: "lcpAdded", unit: " ms", digits: 0 },
  { name: "CLS", metric: "cls", unit: "", digits: 3 },
  {
    name: "Accept All click → next paint",
    metric: "clickToPaint",
    unit: " ms",
    digits: 0,
  },
];
const value = (
  kind: Banner,
  rate: number,
  metric: Metric | "lcpAdded",
  at: "p50" | "p95" = "p50",
): number => {
  if (metric === "lcpAdded") return lcpAdded(kind, rate, at);
  const raw =
    at === "p50" ? median(kind, rate, metric) : p95(kind, rate, metric);
  return metric === "bytes" ? raw / 1024 : raw;
};

const verdicts: Verdict[] = [];
for (const rate of throttles) {
  const setting = rate === 1 ? "unthrottled" : `${rate}× throttled`;
  process.stdout.write(
    `\n${setting}: median (p95)   ${banners.map((kind) => label[kind].padEnd(30)).join("")}\n`,
  );
  for (const row of rows) {
    const cells = banners.map((kind) =>
      `${value(kind, rate, row.metric).toFixed(row.digits)}${row.unit} (${value(kind, rate, row.metric, "p95").toFixed(row.digits)})`.padEnd(
        30,
      ),
    );
    process.stdout.write(`  ${row.name.padEnd(36)}${cells.join("")}\n`);
  }
  process.stdout.write(
    `  page without a banner: LCP ${median("none", rate, "lcp").toFixed(0)} ms, TBT ${median("none", rate, "tbt").toFixed(0)} ms\n`,
  );

  const best = (metric: Metric | "lcpAdded") =>
    Math.min(...peers.map((kind) => value(kind, rate, metric)));
  const ours = (metric: Metric | "lcpAdded") =>
    value("consentry", rate, metric);
  const ratio = (metric: Metric | "lcpAdded") =>
    best(metric) > 0
      ? `${(ours(metric) / best(metric)).toFixed(2)}× the best peer`
      : "the best peer is 0";
  verdicts.push(
    {
      name: `${setting}: bytes`,
      value: `${ours("bytes").toFixed(1)} KB, ${ratio("bytes")}`,
      target: "≤ 0.6×",
      pass: ours("bytes") <= 0.6 * best("bytes"),
    },
    {
      name: `${setting}: banner visible`,
      value: `${ours("visible").toFixed(0)} ms, ${ratio("visible")}`,
      target: "≤ 0.8×",
      pass: ours("visible") <= 0.8 * best("visible"),
    },
    {
      name: `${setting}: total blocking time`,
      value: `${ours("tbt").toFixed(0)} ms vs ${best("tbt").toFixed(0)} ms`,
      target: "≤ the lowest peer",
      pass: ours("tbt") <= best("tbt"),
    },
    {
      name: `${setting}: LCP added`,
      value: `${ours("lcpAdded").toFixed(0)} ms vs ${best("lcpAdded").toFixed(0)} ms`,
      target: "≤ the lowest peer",
      pass: ours("lcpAdded") <= best("lcpAdded"),
    },
    {
      name: `${setting}: CLS from the banner`,
      value: ours("cls").toFixed(3),
      target: "0",
      pass: ours("cls") === 0,
    },
    {
      name: `${setting}: Accept All → next paint`,
      value: `${ours("clickToPaint").toFixed(0)} ms vs ${best("clickToPaint").toFixed(0)} ms`,
      target: "≤ the fastest peer",
      pass: ours("clickToPaint") <= best("clickToPaint"),
    },
  );
}
process.exitCode = printVerdicts("bench:banner", verdicts) ? 0 : 1;
