// `consentry subject export|erase --website ID --visitor ID|--ip ADDR [--out FILE]`: data-subject
// access and erasure for one visitor of one website (services/jobs/src/compliance/subject.ts).
import { writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import type { Config } from '@consentry/infra';
import { getWebsite } from '@consentry/projections';
import { eraseSubject, exportSubject, type SubjectSelector } from '@consentry/jobs';
import { formatCount, processIo, withJobDatabase, type JobIo } from './job';
import { sealSignerFor } from '../seal-key';

const usage = 'Usage: consentry subject export|erase --website ID (--visitor ID | --ip ADDRESS) [--out FILE]\n';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function runSubject(config: Config, args: readonly string[], io: JobIo = processIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { website: { type: 'string' }, visitor: { type: 'string' }, ip: { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  const action = positionals[0];
  const problems: string[] = [];
  if (positionals.length !== 1 || (action !== 'export' && action !== 'erase')) problems.push('say export or erase');
  if (!values.website || !uuidPattern.test(values.website)) problems.push('--website must be a website id (a UUID)');
  if ((values.visitor === undefined) === (values.ip === undefined)) problems.push('give exactly one of --visitor and --ip');
  if (values.visitor !== undefined && (values.visitor.length < 1 || values.visitor.length > 64)) problems.push('--visitor must be 1–64 characters');
  if (values.ip !== undefined && isIP(values.ip) === 0) problems.push(`--ip must be an IPv4 or IPv6 address, got ${JSON.stringify(values.ip)}`);
  if (values.out !== undefined && action !== 'export') problems.push('--out goes with export');
  if (problems.length > 0) {
    io.err(`${problems.join('; ')}.\n${usage}`);
    return 2;
  }
  const subject: SubjectSelector = values.visitor !== undefined ? { visitorId: values.visitor } : { ip: values.ip! };
  return withJobDatabase(config, async (pool) => {
    const website = await getWebsite(pool, values.website!.toLowerCase());
    if (!website) {
      io.err(`No website with id ${values.website}.\n`);
      return 1;
    }
    if ('ip' in subject && website.ipAddressMode === 'truncated') {
      io.err(
        `Note: ${website.name} keeps IP addresses truncated; only consents stored with exactly ${subject.ip} match ` +
          '(a truncated address may be shared by several visitors — prefer --visitor).\n',
      );
    }
    if (action === 'export') {
      const document = await exportSubject(pool, website, subject);
      const json = `${JSON.stringify(document, null, 2)}\n`;
      if (values.out) {
        await writeFile(values.out, json, { mode: 0o600 });
        io.err(`Wrote ${formatCount(document.events.length)} events and ${formatCount(document.readModels.consentRecords.length)} consent records about ${document.subject.visitorIds.length} visitor id(s) to ${values.out}.\n`);
      } else io.out(json);
      return 0;
    }
    const signer = await sealSignerFor(config, pool);
    const summary = await eraseSubject(pool, signer, website, subject);
    if (summary.visitorIds.length === 0) {
      io.out('Nothing is held about this visitor on this website; nothing was changed.\n');
      return 0;
    }
    io.out(
      `Erased the IP address, user agent, email and city of ${summary.visitorIds.length} visitor id(s) on ${website.name}: ` +
        `${formatCount(summary.rewritten)} of their ${formatCount(summary.events)} events rewritten; their consent choices remain. ` +
        `Recorded as event ${summary.erasureEventId}.\n`,
    );
    return 0;
  });
}
