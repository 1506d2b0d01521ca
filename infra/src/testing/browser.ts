// Real headless Chromium for end-to-end tests: Debian's chromium driven by playwright-core (no
// browser download). Hosts under .example.test resolve to loopback, so a test can serve an owner's
// page from its own origin (www.shop.example.test) and the product from another (localhost).
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags every test browser runs with. */
export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP *.example.test 127.0.0.1',
];

/** Where the test run's shared Chromium listens (global-setup.ts sets it for `npm test`). */
export const sharedChromiumVariable = 'CONSENTRY_TEST_CHROMIUM_WS';

/**
 * Chromium with the test flags. Without `extraArgs`, inside `npm test`, a connection to the run's
 * shared browser: closing it closes this file's contexts and disconnects, and the browser stays up
 * for the other files. With `extraArgs` (e.g. `--lang=de`, as a visitor's browser language), or
 * outside the test run (benchmarks, the screenshot tool), a browser of its own.
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const shared = process.env[sharedChromiumVariable];
  if (shared && extraArgs.length === 0) return chromium.connect(shared);
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: apt-get install chromium (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumArgs, ...extraArgs] });
}

/** A free loopback port (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A tiny static site: `pages` maps paths to HTML. */
export async function serveStaticPages(pages: Record<string, string>): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const page = pages[new URL(request.url ?? '/', 'http://x').pathname];
    if (page === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
