// `consentry seal`, `consentry verify` and `consentry receipt ID`: the tamper-evidence jobs.
import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { buildConsentReceipt } from '@consentry/api';
import { loadTrustAnchors, readLatestSeal, sealAll, verifyLedger, type Config, type TimestampSummary } from '@consentry/infra';
import { formatCount, processIo, progressBar, withJobDatabase, type JobIo } from './job';
import { ownSealPublicKey, sealSignerFor } from '../seal-key';

export async function runSeal(config: Config, args: readonly string[], io: JobIo = processIo): Promise<number> {
  // --new-key: the ledger's seal key is lost; sign on with SEAL_KEY_FILE's key (made where there is none).
  const { values } = parseArgs({ args: [...args], options: { 'new-key': { type: 'boolean' } }, strict: true });
  const bar = progressBar(io, 'seal', 'events');
  const { summary, signer } = await withJobDatabase(config, async (pool) => {
    const signer = await sealSignerFor(config, pool, { newKey: values['new-key'] });
    const latest = (await readLatestSeal(pool))?.data.last;
    const { rows } = await pool.query<{ count: number }>({
      text: 'SELECT count(*)::int8 AS count FROM events WHERE (transaction_id, position) > ($1::xid8, $2::int8)',
      values: [latest?.transactionId ?? '0', latest?.position ?? 0],
    });
    let sealed = 0;
    return {
      signer,
      summary: await sealAll(pool, signer, { replaceKey: values['new-key'], onSeal: (seal) => bar.update((sealed += seal.eventCount), rows[0]?.count ?? sealed) }),
    };
  });
  bar.stop();
  io.out(`Sealed ${formatCount(summary.events)} events in ${formatCount(summary.seals)} seals (key ${signer.keyId}).\n`);
  return 0;
}

export async function runVerify(config: Config, args: readonly string[], io: JobIo = processIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { 'public-key': { type: 'string' }, 'tsa-ca': { type: 'string' }, json: { type: 'boolean' } }, strict: true });
  // The trusted key: a published one given with --public-key, or this server's own.
  const published = values['public-key'] ? createPublicKey(await readFile(values['public-key'], 'utf8')) : undefined;
  // The time-stamping authorities trusted: --tsa-ca, else TSA_CA_FILE, else the public roots.
  const tsaCaFile = values['tsa-ca'] ?? config.TSA_CA_FILE;
  const tsaTrustAnchors = await loadTrustAnchors(tsaCaFile === undefined ? undefined : await readFile(tsaCaFile, 'utf8'));
  const bar = progressBar(io, 'verify', 'seals');
  const started = performance.now();
  const report = await withJobDatabase(config, async (pool) =>
    verifyLedger(pool, { publicKey: published ?? (await ownSealPublicKey(config, pool)), tsaTrustAnchors, onProgress: ({ seals, totalSeals }) => bar.update(seals, totalSeals) }),
  );
  bar.stop();
  const seconds = (performance.now() - started) / 1000;
  if (values.json) {
    io.out(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    io.out(
      `Checked ${formatCount(report.seals)} seals: ${formatCount(report.eventsChecked)} events recomputed, ` +
        `${formatCount(report.purged)} purged and ${formatCount(report.erased)} erased as recorded, ` +
        `${formatCount(report.unsealed)} not sealed yet (${seconds.toFixed(1)} s).\n`,
    );
    io.out(describeTimestamps(report.timestamps, report.seals, config.TSA_URL.length > 0));
    if (report.ok) io.out('The ledger verifies: nothing sealed was altered, removed or reordered.\n');
    else {
      io.out(`The ledger does NOT verify. First mismatch:\n  ${report.findings[0]!.message}\n`);
      if (report.findings.length > 1) io.out(`All findings (${report.findings.length}${report.findings.length >= 100 ? '+' : ''}):\n${report.findings.map((finding) => `  - ${finding.message}`).join('\n')}\n`);
    }
  }
  return report.ok ? 0 : 1;
}

/** What the time-stamps prove, in a sentence; a seal no authority dated yet is said, not hidden. */
export function describeTimestamps(timestamps: TimestampSummary, seals: number, configured: boolean): string {
  const { stampedThrough, sealsNotStamped, tokens, verified } = timestamps;
  if (tokens === 0) {
    return configured
      ? 'Time-stamps: none yet (TSA_URL is set; the newest seal is sent to each authority every TSA_INTERVAL_SECONDS).\n'
      : 'Time-stamps: none (no time-stamping authority is configured: TSA_URL).\n';
  }
  const through = stampedThrough
    ? `seals 1 to ${formatCount(stampedThrough.sequence)} existed by ${stampedThrough.genTime} (${stampedThrough.tsa})`
    : 'no seal is dated by a token that verifies';
  const newer = sealsNotStamped > 0 ? `; ${formatCount(sealsNotStamped)} newer ${sealsNotStamped === 1 ? 'seal is' : 'seals are'} not time-stamped yet` : '';
  return `Time-stamps: ${formatCount(verified)} of ${formatCount(tokens)} tokens verify: ${through}${newer} (of ${formatCount(seals)} seals).\n`;
}

export async function runReceipt(config: Config, args: readonly string[], io: JobIo = processIo): Promise<number> {
  const { positionals } = parseArgs({ args: [...args], allowPositionals: true, strict: true });
  const consentId = positionals[0]?.toLowerCase();
  if (positionals.length !== 1 || !consentId || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(consentId)) {
    io.err('Usage: consentry receipt CONSENT_ID   (the consent event id, a UUID)\n');
    return 2;
  }
  const receipt = await withJobDatabase(config, async (pool) => {
    const signer = await sealSignerFor(config, pool);
    // A consent newer than the last seal is sealed first, so the receipt carries its proof.
    await sealAll(pool, signer);
    return buildConsentReceipt(pool, consentId, { publicUrl: config.publicUrl, keyId: signer.keyId });
  });
  if (!receipt) {
    io.err(`No consent with id ${consentId}.\n`);
    return 1;
  }
  io.out(`${JSON.stringify(receipt, null, 2)}\n`);
  return 0;
}
