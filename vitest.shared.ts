// What the two test configs share: which files are slow scenarios, and how many run at once.

/**
 * Scenarios rather than tests of one part, each minutes long: a NATS cluster losing its leaders, a
 * database host vanishing from the network, the multi-machine shape killed -9 under load. They run
 * in `npm run test:slow` (vitest.slow.config.ts), which .ci/run runs after `npm test`.
 */
export const slowTestFiles: readonly string[] = [
  'infra/src/bus/nats-cluster.int.test.ts',
  'infra/src/testing/nats-cluster.int.test.ts',
  'infra/src/db/pool-vanish.int.test.ts',
  'e2e/src/scale-out.e2e.test.ts',
  // Each starts embedded PostgreSQL servers, which as root run as the system user postgres: it must
  // be able to pass through every directory above the checkout, which a checkout in a private
  // directory (mktemp -d, 0700) does not allow. There they fail at once, saying so (they hung
  // before: the package waited for ever for an initdb that could not be spawned).
  'e2e/src/cli-embedded.e2e.test.ts',
  'e2e/src/embedded-backup.e2e.test.ts',
  'infra/src/embedded/embedded-postgres.int.test.ts',
  // Real cookie scans in their own Chromium, timed by how pages settle (three visits of each page
  // side by side): beside another file on a two-core machine a page could miss its 15 s visit
  // budget and a scan came back one page short, or ran past the test's limit. Alone they take
  // 80 s and 60 s and pass every time (issue 34's note).
  'e2e/src/scan-runner.e2e.test.ts',
  'services/jobs/src/scanner/scan-website.e2e.test.ts',
];

/**
 * Test files at once: one per core. With files sharing one process (testIsolation), two files at
 * once on two cores keep both busy while one waits on Postgres, NATS or Chromium; four at once drove
 * the load to 15-20 and Chromium and replay tests out of time. CONSENTRY_TEST_WORKERS sets it.
 */
export function testWorkers(cores: number, override = process.env.CONSENTRY_TEST_WORKERS): number {
  if (override !== undefined && override !== '') {
    const workers = Number(override);
    if (!Number.isInteger(workers) || workers < 1) throw new Error(`CONSENTRY_TEST_WORKERS must be a whole number of at least 1, not "${override}"`);
    return workers;
  }
  return Math.max(1, cores);
}

/**
 * Whether each test file gets fresh modules in a fresh process. Off by default for the node and web
 * projects: loading the modules and the DOM again for each of ~200 files was a third of the suite's
 * time (import 202 s and environment 51 s of 1,252 s). Files already own everything they start
 * (database, streams, ports, servers) and stop it in afterAll, so they need no process of their own.
 * CONSENTRY_TEST_ISOLATE=1 turns isolation back on, to tell whether a failure comes from sharing.
 * The widget's project stays isolated: its simulated pages keep network work alive across files.
 */
export function testIsolation(override = process.env.CONSENTRY_TEST_ISOLATE): boolean {
  if (override === undefined || override === '' || override === '0') return false;
  if (override === '1') return true;
  throw new Error(`CONSENTRY_TEST_ISOLATE must be 0 or 1, not "${override}"`);
}
