// `consentry witness URL [--state FILE] [--json]`: follows another installation's chain of seals from
// outside it (docs/compliance.md, "Witnessed seals"). It keeps the newest head it accepted in a
// state file and, each run, checks that the seal it saw is still there unchanged and that every newer
// seal extends it, signed by the key published then. Run it from cron somewhere the operator does
// not control. Exit status: 0 the chain extends what was seen; 1 the history was rewritten, forked or
// truncated, or the key changed (the evidence is printed, and the state file is left as it was);
// 2 bad arguments; 69 the installation could not be reached or answered something unreadable.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { witnessSeals, type SealFeedPage, type WitnessSource, type WitnessState } from '@consentry/infra';
import { formatCount, processIo, type JobIo } from './job';

const exitUnavailable = 69;

class UnreachableError extends Error {}

function httpSource(base: URL, timeoutMs: number): WitnessSource {
  const get = async <T>(pathAndQuery: string): Promise<T> => {
    const url = new URL(pathAndQuery, base);
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new UnreachableError(`${url.href} could not be reached (${(error as Error).message})`);
    }
    if (!response.ok) throw new UnreachableError(`${url.href} answered ${response.status}`);
    try {
      return (await response.json()) as T;
    } catch {
      throw new UnreachableError(`${url.href} did not answer JSON`);
    }
  };
  return {
    sealKey: () => get('/.well-known/consentry/seal-key'),
    seals: (after, limit) => get<SealFeedPage>(`/.well-known/consentry/seals?after=${after}&limit=${limit}`),
  };
}

async function readState(file: string): Promise<WitnessState | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as WitnessState;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function runWitness(args: readonly string[], io: JobIo = processIo, options: { readonly dataDir?: string } = {}): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], allowPositionals: true, options: { state: { type: 'string' }, json: { type: 'boolean' } }, strict: true });
  const target = positionals[0];
  if (positionals.length !== 1 || !target || !URL.canParse(target) || !/^https?:$/.test(new URL(target).protocol)) {
    io.err('Usage: consentry witness URL [--state FILE] [--json]   (URL: the installation, e.g. https://consent.example.com)\n');
    return 2;
  }
  const base = new URL(target);
  const stateFile = values.state ?? path.join(options.dataDir ?? '.data', 'witness', `${base.host.replace(/[^A-Za-z0-9.-]/g, '_')}.json`);
  const state = await readState(stateFile);
  if (state && state.url !== base.origin) {
    io.err(`${stateFile} is the state of a witness of ${state.url}, not ${base.origin}: give another --state file.\n`);
    return 2;
  }
  let outcome;
  try {
    outcome = await witnessSeals(httpSource(base, 15_000), base.origin, state);
  } catch (error) {
    io.err(`The installation's seals could not be read: ${error instanceof UnreachableError ? error.message : (error as Error).message}\n`);
    return exitUnavailable;
  }
  if (values.json) io.out(`${JSON.stringify(outcome, null, 2)}\n`);
  if (!outcome.ok) {
    if (!values.json) {
      io.out(`The history of ${base.origin} is NOT the one this witness saw (${outcome.evidence.problem}):\n  ${outcome.evidence.message}\n`);
      io.out(`Evidence:\n  seen: ${JSON.stringify(outcome.evidence.saw)}\n  now:  ${JSON.stringify(outcome.evidence.now)}\n`);
      io.out(`The state file ${stateFile} is left as it was.\n`);
    }
    return 1;
  }
  await mkdir(path.dirname(stateFile), { recursive: true });
  // Written whole, then moved into place: a crash never leaves half a state.
  await writeFile(`${stateFile}.tmp`, `${JSON.stringify(outcome.state, null, 2)}\n`, { mode: 0o600 });
  await rename(`${stateFile}.tmp`, stateFile);
  if (!values.json) {
    const head = outcome.state.sequence === 0 ? 'no seal yet' : `seal ${formatCount(outcome.state.sequence)} (${outcome.state.sealHash})`;
    io.out(
      outcome.firstRun
        ? `First run: checked ${formatCount(outcome.followed)} seals of ${base.origin}; the head is ${head}. Kept in ${stateFile}.\n`
        : `The chain of ${base.origin} extends the one seen on ${state!.checkedAt}: ${formatCount(outcome.followed)} new seals checked; the head is ${head}.\n`,
    );
  }
  return 0;
}
