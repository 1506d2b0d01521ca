// The scan runner of `consentry start` (and of `consentry scan`): takes the oldest queued scan from
// the scans read model, one at a time, visits the website with the engine, and records the result as
// ScanCompleted — or ScanFailed with a reason the owner can act on. Progress is reported as it goes
// (it is also the claim's heartbeat: a runner that dies leaves a scan another runner takes over).
// It also queues the scheduled scans of websites that are due one.
import { randomUUID } from 'node:crypto';
import { defaultScanPages, scanStreamId, type ScanCompleted, type ScanFinding } from '@consentry/events';
import { appendToStream, ConcurrencyError, type Db, type NewEvent } from '@consentry/infra';
import {
  claimNextScan,
  getPreviousScanFindings,
  getWebsite,
  isOpenScanConflict,
  listItemAssignments,
  listWebsitesDueScan,
  reportScanProgress,
  scansProjection,
  type ScanSummary,
  type Website,
} from '@consentry/projections';
import type { Browser } from 'playwright-core';
import { ChromiumMissingError, launchScannerBrowser } from './browser';
import { classifyCookie } from './cookie-database';
import { classifyObservation } from './findings';
import { scanWebsite, ScanError, type ScanOptions } from './scan-website';
import type { AddressAllowance, HostLookup } from './address-guard';

export interface ScanRunnerOptions {
  readonly pool: Db;
  /** Names this runner in the queue (host and process). */
  readonly runnerId: string;
  /** A browser for one scan; closed after it. */
  readonly launchBrowser: () => Promise<Browser>;
  /** Where a website's scan starts; `https://{domain}/` unless told otherwise (tests serve on loopback). */
  readonly rootUrlOf?: (website: Website) => string;
  /** Requests answered locally and never sent: the product's own collection endpoints, so a scan adds no consents. */
  readonly muteRequest?: (url: string) => boolean;
  readonly isAllowedAddress?: AddressAllowance;
  readonly lookup?: HostLookup;
  readonly pageTimeoutMs?: number;
  readonly scanTimeoutMs?: number;
  readonly timing?: ScanOptions['timing'];
  /** A claim older than this with no progress is taken over. */
  readonly staleAfterMs?: number;
  /**
   * Told when a scheduled scan finds what the previous completed scan did not (by code and subject):
   * the owner should hear about a new tracker nobody added by hand.
   */
  readonly notifyNewFindings?: (website: Website, findings: readonly ScanFinding[], scan: ScanSummary) => Promise<void>;
  readonly now?: () => Date;
}

/**
 * How this installation's runners scan, for `consentry start` and `consentry scan` alike: the system
 * Chromium, the product's own beacons and rule request answered locally (a scan counts as no visitor
 * and meets the banner's safe default whatever this server's region), and the hosts
 * VERIFY_ALLOWED_HOSTS lets through the address rules.
 */
export function installationScanOptions(config: {
  readonly publicUrl: string;
  readonly VERIFY_ALLOWED_HOSTS: readonly string[];
}): Pick<ScanRunnerOptions, 'launchBrowser' | 'muteRequest' | 'isAllowedAddress'> {
  return {
    launchBrowser: () => launchScannerBrowser(),
    muteRequest: (url) => url.startsWith(`${config.publicUrl}/api/collect/`) || url.startsWith(`${config.publicUrl}/api/widget/rule/`),
    isAllowedAddress: (host) => config.VERIFY_ALLOWED_HOSTS.includes(host.toLowerCase()),
  };
}

export type ScanOutcome = { readonly scan: ScanSummary; readonly status: 'completed' | 'failed'; readonly reason?: string };

const maxItems = 5_000;
const maxFindings = 1_000;

/**
 * Runs the oldest queued scan, if any, to its end; null when the queue is empty. Never throws for a
 * scan that fails: the failure is recorded (ScanFailed) and returned.
 */
export async function runNextScan(options: ScanRunnerOptions): Promise<ScanOutcome | null> {
  const now = options.now ?? (() => new Date());
  const scan = await claimNextScan(options.pool, options.runnerId, now(), options.staleAfterMs ?? 120_000);
  if (!scan) return null;
  const startedAt = now().toISOString();
  try {
    const website = await getWebsite(options.pool, scan.websiteId);
    if (!website) throw new ScanFailure('The website was removed before its scan could run.');
    const assignments = await listItemAssignments(options.pool, website.id);
    const browser = await options.launchBrowser();
    let result: ScanCompleted['data'];
    try {
      const observation = await scanWebsite(browser, {
        rootUrl: options.rootUrlOf?.(website) ?? `https://${website.domain}/`,
        domain: website.domain,
        maxPages: scan.maxPages,
        ...(options.pageTimeoutMs ? { pageTimeoutMs: options.pageTimeoutMs } : {}),
        ...(options.scanTimeoutMs ? { scanTimeoutMs: options.scanTimeoutMs } : {}),
        ...(options.isAllowedAddress ? { isAllowedAddress: options.isAllowedAddress } : {}),
        ...(options.lookup ? { lookup: options.lookup } : {}),
        ...(options.muteRequest ? { muteRequest: options.muteRequest } : {}),
        ...(options.timing ? { timing: options.timing } : {}),
        onProgress: (progress) => {
          void reportScanProgress(
            options.pool,
            scan.scanId,
            options.runnerId,
            { pagesDone: progress.pagesDone, pagesPlanned: progress.pagesPlanned, currentUrl: progress.url },
            now(),
          ).catch(() => undefined);
        },
      });
      const classified = classifyObservation(observation, {
        classify: classifyCookie,
        // Identification sets nothing a scan sees under its own name: its services are not matched.
        declared: website.services.flatMap((service) =>
          service.purpose === 'identification' ? [] : [{ purpose: service.purpose, name: service.name, cookies: [...service.cookies] }],
        ),
        assignments: assignments.map((assignment) => ({ kind: assignment.kind, name: assignment.name, purpose: assignment.purpose })),
      });
      result = {
        scanId: scan.scanId,
        websiteId: website.id,
        startedAt,
        completedAt: now().toISOString(),
        pagesScanned: observation.pages.length,
        truncated: observation.truncated,
        items: classified.items.slice(0, maxItems),
        findings: classified.findings.slice(0, maxFindings),
      };
    } finally {
      await browser.close().catch(() => undefined);
    }
    await recordOnce(options.pool, scan.scanId, { type: 'ScanCompleted', data: result });
    if (scan.trigger === 'schedule' && options.notifyNewFindings) {
      const previous = await getPreviousScanFindings(options.pool, website.id, scan.scanId);
      const known = new Set((previous ?? []).map((finding) => `${finding.code}\u0000${finding.subject}`));
      const fresh = result.findings.filter((finding) => !known.has(`${finding.code}\u0000${finding.subject}`));
      if (fresh.length > 0) await options.notifyNewFindings(website, fresh, scan).catch(() => undefined);
    }
    return { scan, status: 'completed' };
  } catch (error) {
    const reason = reasonOf(error);
    await recordOnce(options.pool, scan.scanId, {
      type: 'ScanFailed',
      data: { scanId: scan.scanId, websiteId: scan.websiteId, reason, failedAt: now().toISOString() },
    });
    return { scan, status: 'failed', reason };
  }
}

/**
 * Appends a scan's end right after its request (version 1): a runner that took over a scan whose
 * first runner only seemed dead may finish second, and then its result is not recorded twice.
 */
async function recordOnce(pool: Db, scanId: string, event: NewEvent): Promise<void> {
  try {
    await appendToStream(pool, scanStreamId(scanId), [event], { expectedVersion: 1, inlineProjections: [scansProjection] });
  } catch (error) {
    if (!(error instanceof ConcurrencyError)) throw error;
  }
}

class ScanFailure extends Error {}

/** What an owner reads about a failed scan: the engine's own words for what it refused, never a stack. */
function reasonOf(error: unknown): string {
  if (error instanceof ScanFailure || error instanceof ScanError || error instanceof ChromiumMissingError) return error.message.slice(0, 500);
  return 'The scan stopped on an unexpected error; it was logged. Try again later.';
}

/** Queues a scheduled scan (trigger 'schedule') for every website that is due one; returns how many. */
export async function scheduleDueScans(pool: Db, now: Date): Promise<number> {
  let queued = 0;
  for (const websiteId of await listWebsitesDueScan(pool, now)) {
    const scanId = randomUUID();
    try {
      await appendToStream(
        pool,
        scanStreamId(scanId),
        [{ type: 'ScanRequested', data: { scanId, websiteId, trigger: 'schedule', requestedBy: null, maxPages: defaultScanPages, requestedAt: now.toISOString() } }],
        { expectedVersion: 'no_stream', inlineProjections: [scansProjection] },
      );
      queued++;
    } catch (error) {
      // Someone asked for one meanwhile: that scan will do.
      if (!isOpenScanConflict(error)) throw error;
    }
  }
  return queued;
}

export interface ScanRunner {
  stop(): Promise<void>;
}

/**
 * Works through the queue every `pollMs` (at once after a scan finished), one scan at a time, until
 * stopped; `onError` hears about what could not even be recorded (the database gone).
 */
export function startScanRunner(
  options: ScanRunnerOptions & { pollMs?: number; scheduleEveryMs?: number; onOutcome?: (outcome: ScanOutcome) => void; onError?: (error: unknown) => void },
): ScanRunner {
  let stopped = false;
  let scheduledAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      let outcome: ScanOutcome | null = null;
      try {
        const now = (options.now ?? (() => new Date()))();
        if (now.getTime() - scheduledAt >= (options.scheduleEveryMs ?? 10 * 60_000)) {
          scheduledAt = now.getTime();
          await scheduleDueScans(options.pool, now);
        }
        outcome = await runNextScan(options);
        if (outcome) options.onOutcome?.(outcome);
      } catch (error) {
        options.onError?.(error);
      }
      if (outcome || stopped) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, options.pollMs ?? 5_000);
      });
    }
  })();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
