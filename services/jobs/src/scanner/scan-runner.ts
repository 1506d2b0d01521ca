// The scan runners of `consentry start` (and of `consentry scan`): take the next scan from the scans
// read model, fairly across owners (scan-queue.ts), visit the website with the engine, and record the
// result as ScanCompleted — or ScanFailed with a reason the owner can act on. Progress is reported as
// it goes, and the claim renewed (a runner that dies leaves a scan another runner takes over). They
// also queue the scheduled scans of websites that are due one.
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { defaultScanPages, getDomainHostname, scanStreamId, type ScanCompleted, type ScanFinding } from '@consentry/events';
import { appendToStream, ConcurrencyError, keepClaim, startQueueRunner, type Db, type NewEvent } from '@consentry/infra';
import {
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
import { claimNextScanFairly, keepScanClaim, releaseScanClaim } from './scan-queue';
import { scanWebsite, ScanError, type ScanOptions } from './scan-website';
import type { HostLookup } from '@consentry/infra';
import type { AddressAllowance } from './address-guard';

export interface ScanRunnerOptions {
  readonly pool: Db;
  /** Names this runner in the queue (host and process). */
  readonly runnerId: string;
  /** A browser for one scan; closed after it. */
  readonly launchBrowser: () => Promise<Browser>;
  /** Where a website's scan starts; `getScanRootUrls(domain)` unless told otherwise (tests serve on loopback). */
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

const defaultStaleAfterMs = 120_000;

/**
 * Runs the next scan of the queue (scan-queue.ts: fair across owners), if any, to its end; null when
 * the queue is empty. Never throws for a scan that fails: the failure is recorded (ScanFailed) and
 * returned.
 */
export async function runNextScan(options: ScanRunnerOptions): Promise<ScanOutcome | null> {
  const now = options.now ?? (() => new Date());
  const staleAfterMs = options.staleAfterMs ?? defaultStaleAfterMs;
  const scan = await claimNextScanFairly(options.pool, { runner: options.runnerId, now: now(), staleAfterMs, ownersRunningToo: true });
  if (!scan) return null;
  const renewal = keepClaim(() => keepScanClaim(options.pool, scan.scanId, options.runnerId, now()), { everyMs: staleAfterMs / 4 });
  try {
    return await runClaimedScan(options, scan);
  } finally {
    await renewal.stop();
  }
}

/**
 * Where a scan of a website starts: https first, then http (a test site on a LAN), at the domain's
 * explicit port if it has one (`shop.lan:8080`), as the installation check fetches it.
 */
export function getScanRootUrls(domain: string): string[] {
  return [`https://${domain}/`, `http://${domain}/`];
}

/** Scans from the first root address whose page loads; a host refused or unresolvable is so for each. */
async function scanFromFirstReachable<T>(rootUrls: readonly string[], scanFrom: (rootUrl: string) => Promise<T>): Promise<T> {
  for (const [index, rootUrl] of rootUrls.entries()) {
    try {
      return await scanFrom(rootUrl);
    } catch (error) {
      if (!(error instanceof ScanError && error.code === 'UNREACHABLE') || index === rootUrls.length - 1) throw error;
    }
  }
  throw new RangeError('no root address to scan from');
}

/**
 * Runs a scan this runner claimed to its end, recording how it ended (its caller keeps the claim
 * alive meanwhile: a page that never loads reports no progress). Aborted by `signal` (the runner
 * stops), the scan is handed back to the queue unrecorded: null.
 */
async function runClaimedScan(options: ScanRunnerOptions, scan: ScanSummary, signal?: AbortSignal): Promise<ScanOutcome | null> {
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  try {
    const website = await getWebsite(options.pool, scan.websiteId);
    if (!website) throw new ScanFailure('The website was removed before its scan could run.');
    const assignments = await listItemAssignments(options.pool, website.id);
    const browser = await options.launchBrowser();
    let result: ScanCompleted['data'];
    try {
      const scanFrom = (rootUrl: string) => scanWebsite(browser, {
        rootUrl,
        domain: getDomainHostname(website.domain),
        maxPages: scan.maxPages,
        ...(options.pageTimeoutMs ? { pageTimeoutMs: options.pageTimeoutMs } : {}),
        ...(options.scanTimeoutMs ? { scanTimeoutMs: options.scanTimeoutMs } : {}),
        ...(options.isAllowedAddress ? { isAllowedAddress: options.isAllowedAddress } : {}),
        ...(options.lookup ? { lookup: options.lookup } : {}),
        ...(options.muteRequest ? { muteRequest: options.muteRequest } : {}),
        ...(options.timing ? { timing: options.timing } : {}),
        ...(signal ? { signal } : {}),
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
      const observation = await scanFromFirstReachable(options.rootUrlOf ? [options.rootUrlOf(website)] : getScanRootUrls(website.domain), scanFrom);
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
    if (signal?.aborted) {
      await releaseScanClaim(options.pool, scan.scanId, options.runnerId);
      return null;
    }
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
 * What `SCAN_RUNNERS=auto` sets aside per runner: one scan's headless Chromium peaked at about 500 MiB
 * (proportional set size of its processes, 25 pages of the test site: docs/scanner.md), doubled for
 * heavier real sites.
 */
export const memoryPerScanRunnerMiB = 1024;
/** Most runners `SCAN_RUNNERS=auto` starts in one process, however much memory is free. */
export const maxAutoScanRunners = 4;

/**
 * How many scans this process runs at once: SCAN_RUNNERS, or with `auto` one per
 * memoryPerScanRunnerMiB available now (within the process's cgroup limit) and per core (a starved
 * Chromium times pages out), from 1 to maxAutoScanRunners.
 */
export function scanRunnerCount(
  setting: number | 'auto',
  machine: { readonly availableBytes: number; readonly cores: number } = { availableBytes: process.availableMemory(), cores: availableParallelism() },
): number {
  if (setting !== 'auto') return setting;
  const byMemory = Math.floor(machine.availableBytes / (memoryPerScanRunnerMiB * 1024 * 1024));
  return Math.max(1, Math.min(maxAutoScanRunners, byMemory, machine.cores));
}

/**
 * Works through the queue with `runners` runners (default 1), claiming every `pollMs` (at once
 * after a scan finished), until stopped; `onError` hears about what could not even be recorded (the
 * database gone). Claims in a process take turns, and with several runners the last idle one takes no
 * scan of an owner who already has one running: an owner with many scans gets all runners but one, so
 * another owner's scan starts at once instead of waiting for one of theirs to end.
 */
export function startScanRunner(
  options: ScanRunnerOptions & {
    runners?: number;
    pollMs?: number;
    scheduleEveryMs?: number;
    onOutcome?: (outcome: ScanOutcome) => void;
    onError?: (error: unknown) => void;
  },
): ScanRunner {
  const runners = Math.max(1, Math.floor(options.runners ?? 1));
  const now = options.now ?? (() => new Date());
  const staleAfterMs = options.staleAfterMs ?? defaultStaleAfterMs;
  let scheduledAt = 0;
  // Each runner names its scans' claims: `host:pid`, or `host:pid#2` with several.
  const idleRunners = Array.from({ length: runners }, (_, index) => (runners === 1 ? options.runnerId : `${options.runnerId}#${index + 1}`));

  type Claim = { readonly scan: ScanSummary; readonly runnerId: string };
  const runner = startQueueRunner<Claim>({
    name: 'scan',
    concurrency: runners,
    pollMs: options.pollMs ?? 5_000,
    claim: async ({ free }) => {
      const at = now();
      if (at.getTime() - scheduledAt >= (options.scheduleEveryMs ?? 10 * 60_000)) {
        scheduledAt = at.getTime();
        await scheduleDueScans(options.pool, at);
      }
      const runnerId = idleRunners.shift()!;
      try {
        // One scan per claim, stale ones included; the runner claims again at once while runners are idle.
        const scan = await claimNextScanFairly(options.pool, { runner: runnerId, now: at, staleAfterMs, ownersRunningToo: runners === 1 || free > 1 });
        if (scan) return [{ scan, runnerId }];
      } catch (error) {
        idleRunners.unshift(runnerId);
        throw error;
      }
      idleRunners.unshift(runnerId);
      return [];
    },
    // Four renewals per stale limit: a missed one is made up by the next, so it goes unreported.
    renew: { everyMs: staleAfterMs / 4, claim: ({ scan, runnerId }) => keepScanClaim(options.pool, scan.scanId, runnerId, now()).catch(() => undefined) },
    // Stopping hands the scans under way back to the queue rather than waiting up to a scan's five minutes.
    work: async ({ scan, runnerId }, { signal }) => {
      try {
        const outcome = await runClaimedScan({ ...options, runnerId }, scan, signal);
        if (outcome) options.onOutcome?.(outcome);
      } finally {
        idleRunners.unshift(runnerId);
      }
    },
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return { stop: () => runner.stop() };
}
