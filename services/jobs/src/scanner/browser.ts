// The browser a scan runs in: the system's Chromium (Debian's `chromium` package) driven by
// playwright-core, which never downloads a browser of its own.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const defaultChromiumPath = '/usr/bin/chromium';

export class ChromiumMissingError extends Error {
  readonly code = 'CHROMIUM_MISSING';
  constructor(readonly path: string) {
    super(`The scanner needs Chromium, which is not installed at ${path}: install the Debian package "chromium" (apt-get install chromium), or set CHROMIUM_PATH to its binary`);
    this.name = 'ChromiumMissingError';
  }
}

export interface ScannerBrowserOptions {
  /** Defaults to CHROMIUM_PATH, then /usr/bin/chromium. */
  executablePath?: string;
  /** More flags, e.g. `--host-resolver-rules=…` in tests. */
  extraArgs?: readonly string[];
}

/** Launches headless Chromium for scanning; a missing binary is a ChromiumMissingError naming the package. */
export async function launchScannerBrowser(options: ScannerBrowserOptions = {}): Promise<Browser> {
  const executablePath = options.executablePath ?? process.env.CHROMIUM_PATH ?? defaultChromiumPath;
  if (!existsSync(executablePath)) throw new ChromiumMissingError(executablePath);
  // Loaded with the first scan, not at start: playwright-core is a tenth of a second of every start.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      // Traffic the scanner's route guard never sees: WebRTC (STUN/TURN over UDP) and DNS prefetching.
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      '--dns-prefetch-disable',
      ...(options.extraArgs ?? []),
    ],
  });
}
