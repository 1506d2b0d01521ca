// `consentry purge [--dry-run] [--website ID]`: removes what each website's retention period no
// longer allows (services/jobs/src/compliance/purge.ts), with a progress bar and a summary.
import { parseArgs } from 'node:util';
import type { Config } from '@consentry/infra';
import { getWebsite, listWebsites, type Website } from '@consentry/projections';
import { purgeWebsite, type WebsitePurgeSummary } from '@consentry/jobs';
import { formatCount, processIo, progressBar, withJobDatabase, type JobIo } from './job';
import { sealSignerFor } from '../seal-key';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function runPurge(config: Config, args: readonly string[], io: JobIo = processIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { 'dry-run': { type: 'boolean' }, website: { type: 'string' } }, strict: true });
  if (values.website !== undefined && !uuidPattern.test(values.website)) {
    io.err(`--website must be a website id (a UUID), got ${JSON.stringify(values.website)}\n`);
    return 2;
  }
  const dryRun = values['dry-run'] === true;
  return withJobDatabase(config, async (pool) => {
    const signer = await sealSignerFor(config, pool);
    let websites: Website[];
    if (values.website !== undefined) {
      const website = await getWebsite(pool, values.website.toLowerCase());
      if (!website) {
        io.err(`No website with id ${values.website}.\n`);
        return 1;
      }
      websites = [website];
    } else {
      websites = await listWebsites(pool, null);
    }
    const summaries: WebsitePurgeSummary[] = [];
    for (const website of websites) {
      const bar = progressBar(io, `purge ${website.name}`, 'events');
      summaries.push(await purgeWebsite(pool, signer, website, { dryRun, onProgress: (removed, total) => bar.update(removed, total) }));
      bar.stop();
    }
    for (const summary of summaries) {
      const types = Object.entries(summary.byType).map(([type, count]) => `${formatCount(count)} ${type}`).join(', ');
      io.out(
        `${summary.websiteName} (${summary.websiteId}): retention ${summary.retentionMonths} months, cut-off ${summary.cutoff.slice(0, 10)}: ` +
          (dryRun
            ? `would remove ${formatCount(summary.removed)} events${types ? ` (${types})` : ''}.\n`
            : `removed ${formatCount(summary.removed)} events${types ? ` (${types})` : ''} in ${summary.batches} batches, ${(summary.durationMs / 1000).toFixed(1)} s.\n`),
      );
    }
    const total = summaries.reduce((sum, summary) => sum + summary.removed, 0);
    io.out(`${dryRun ? 'Dry run: would remove' : 'Purged'} ${formatCount(total)} events from ${summaries.length} website${summaries.length === 1 ? '' : 's'}.\n`);
    return 0;
  });
}
