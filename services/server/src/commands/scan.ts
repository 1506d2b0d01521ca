// `consentry scan --website ID [--pages N] [--json]`: scans a website now, as an owner's scan would
// run in `consentry start` (the same queue and runner), waits for it, and prints the findings. Exits 1
// when the scan failed or found a violation (a non-necessary item set before consent or after Reject
// All), so a deploy pipeline can gate on it.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { defaultScanPages, maxScanPages } from '@consentry/events';
import { appendToStream, type Config } from '@consentry/infra';
import { getScanReport, getWebsite, isOpenScanConflict, scansProjection } from '@consentry/projections';
import { installationScanOptions, runNextScan } from '@consentry/jobs';
import { processIo, withJobDatabase, type JobIo } from './job';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const violations = new Set(['set_before_consent', 'set_after_reject']);

export async function runScan(config: Config, args: readonly string[], io: JobIo = processIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { website: { type: 'string' }, pages: { type: 'string' }, json: { type: 'boolean' } }, strict: true });
  const websiteId = values.website?.toLowerCase();
  const pages = values.pages === undefined ? defaultScanPages : Number(values.pages);
  if (!websiteId || !uuidPattern.test(websiteId) || !Number.isInteger(pages) || pages < 1 || pages > maxScanPages) {
    io.err(`Usage: consentry scan --website ID [--pages 1-${maxScanPages}] [--json]   (ID: the website's id, a UUID)\n`);
    return 2;
  }
  return withJobDatabase(config, async (pool) => {
    const website = await getWebsite(pool, websiteId);
    if (!website) {
      io.err(`No website with id ${websiteId}.\n`);
      return 1;
    }
    const scanId = randomUUID();
    try {
      await appendToStream(
        pool,
        `scan-${scanId}`,
        [{ type: 'ScanRequested', data: { scanId, websiteId, trigger: 'cli', requestedBy: null, maxPages: pages, requestedAt: new Date().toISOString() } }],
        { expectedVersion: 'no_stream', inlineProjections: [scansProjection] },
      );
    } catch (error) {
      if (isOpenScanConflict(error)) {
        io.err('A scan of this website is already waiting or running; try again when it has finished.\n');
        return 1;
      }
      throw error;
    }
    io.err(`Scanning ${website.domain} (up to ${pages} pages)…\n`);
    // Older queued scans run first: the queue is one line, whoever works it.
    for (;;) {
      const outcome = await runNextScan({
        pool,
        runnerId: `${hostname()}:${process.pid}:cli`,
        ...installationScanOptions(config),
      });
      if (!outcome || outcome.scan.scanId === scanId) break;
    }
    const report = await getScanReport(pool, scanId);
    if (!report || report.status !== 'completed') {
      io.err(`The scan failed: ${report?.failureReason ?? 'another runner holds it; see the website’s scan history'}\n`);
      return 1;
    }
    if (values.json) io.out(`${JSON.stringify(report, null, 2)}\n`);
    else {
      io.out(`Scanned ${report.pagesScanned} pages of ${website.domain}${report.truncated ? ' (stopped at the time limit)' : ''}: ${report.items.length} cookies and storage keys, ${report.findings.length} findings.\n`);
      for (const finding of report.findings) io.out(`  [${finding.severity}] ${finding.message}\n`);
    }
    return report.findings.some((finding) => violations.has(finding.code)) ? 1 : 0;
  });
}
