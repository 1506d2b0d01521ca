#!/usr/bin/env node
// The `consentry` command line: start the product, migrate, and the ledger jobs.
//
// Exit status, which automation relies on: 0 success; 1 the command ran and failed (the ledger does
// not verify, no such consent, …); 2 bad arguments (unknown command or option, missing value);
// 78 configuration error (EX_CONFIG). e2e/src/cli.e2e.test.ts and cli-embedded.e2e.test.ts run each
// as a subprocess.
//
// Only the configuration is loaded up front: each command's code is imported when it runs, so help,
// a bad argument or a configuration error answers at once instead of after loading the whole product.
import { ConfigError, loadConfig } from '@consentry/infra/config';

const usage = `Usage: consentry <command> [options]

Commands:
  start [--role ROLES]        start the product on PORT (default 3000): every part, with HTTP
                              workers on the other cores (HTTP_WORKERS); --role runs only some of
                              ingest, api, projectors, relay, jobs (comma-separated), for a
                              deployment across machines (docs/deploy.md; needs NATS_URL)
  status [--json]             what runs where: processes and their roles, partitions owned,
                              lag per projection and partition, dead letters, the last seal
  migrate                     apply database migrations and exit
  replay [--projection NAME]  rebuild one projection (or all) from the event log; exits 1 when
                              some events could not be applied (set aside as dead letters)
  dead-letters [list|retry] [--projection NAME] [--all] [--json]
                              events a projection set aside; retry applies them again once fixed
                              (retry exits 1 when some still fail)
  seal [--new-key]            seal everything committed so far (start also seals every few seconds);
                              --new-key: the ledger's key is lost, sign on with SEAL_KEY_FILE's
                              key (made if there is none)
  verify [--public-key FILE] [--tsa-ca FILE] [--json]
                              recompute every seal from the log; name the first mismatch; check
                              the seals' RFC 3161 time-stamps and say how far the chain is dated
  witness URL [--state FILE] [--json]
                              follow another installation's chain of seals from outside it: exits
                              1 with the evidence when the history seen before was rewritten
  purge [--dry-run] [--website ID]
                              remove events older than each website's retention period
  receipt CONSENT_ID          print the consent receipt with its inclusion proof (JSON)
  scan --website ID [--pages N] [--json]
                              scan a website for cookies and trackers now and print the findings;
                              exits 1 when it failed or found something set before or against consent
  subject export --website ID (--visitor ID | --ip ADDR) [--out FILE]
                              everything held about one visitor (JSON)
  subject erase --website ID (--visitor ID | --ip ADDR)
                              remove one visitor's personal data everywhere: IP, user agent,
                              city, and what identified them (email, name, company, enrichment)
  admin create --username NAME [--password-stdin]
                              create an admin, or set a new password for one
  openapi                     print the api's OpenAPI document (what /api/docs/json answers) as
                              JSON; needs no database and no configuration
  help                        show this help
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    if (command === undefined) {
      process.stderr.write(usage);
      return 2;
    }
    process.stdout.write(usage);
    return 0;
  }
  // The document depends on the routes alone, so it is printed before any configuration is read.
  if (command === 'openapi') return (await import('./commands/openapi')).runOpenApi(rest);
  const config = loadConfig();
  switch (command) {
    case 'start':
      return (await import('./commands/start')).runStart(config, rest);
    case 'migrate':
      return (await import('./commands/migrate')).runMigrate(config);
    case 'replay':
      return (await import('./commands/replay')).runReplay(config, rest);
    case 'dead-letters':
      return (await import('./commands/dead-letters')).runDeadLetters(config, rest);
    case 'admin':
      return (await import('./commands/admin')).runAdmin(config, rest);
    case 'seal':
      return (await import('./commands/ledger')).runSeal(config, rest);
    case 'verify':
      return (await import('./commands/ledger')).runVerify(config, rest);
    case 'purge':
      return (await import('./commands/purge')).runPurge(config, rest);
    case 'scan':
      return (await import('./commands/scan')).runScan(config, rest);
    case 'receipt':
      return (await import('./commands/ledger')).runReceipt(config, rest);
    case 'subject':
      return (await import('./commands/subject')).runSubject(config, rest);
    case 'status':
      return (await import('./commands/status')).runStatus(config, rest);
    case 'witness':
      return (await import('./commands/witness')).runWitness(rest, undefined, { dataDir: config.DATA_DIR });
    default:
      process.stderr.write(`Unknown command: ${command}\n\n${usage}`);
      return 2;
  }
}

/** node:util parseArgs's errors: an unknown option, a missing value, a stray positional. */
function isArgumentError(error: unknown): error is Error {
  const code: unknown = error instanceof Error ? Reflect.get(error, 'code') : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

// A command whose work is left waiting on something that can no longer happen (the event loop runs
// dry) must not pass for a success: until main settles, the exit status is 1, and the reason is said.
let settled = false;
process.exitCode = 1;
process.once('exit', () => {
  if (!settled) process.stderr.write('consentry: the command stopped before it finished (it was left waiting on nothing); nothing says it succeeded\n');
});

main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (error: unknown) => {
    settled = true;
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 78;
      return;
    }
    if (isArgumentError(error)) {
      process.stderr.write(`consentry: ${error.message}\n\n${usage}`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`consentry: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
