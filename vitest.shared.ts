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
];

/**
 * Test files at once: by default vitest's own choice, one less than the cores (one file at a time on
 * two cores). More is not faster here: with 4 files at once on 2 cores the load reached 15-20 and
 * Chromium and replay tests ran out of time, so the suite is bound by CPU, not by waiting.
 * CONSENTRY_TEST_WORKERS sets it (a machine with cores to spare can run more).
 */
export function testWorkers(cores: number, override = process.env.CONSENTRY_TEST_WORKERS): number {
  if (override !== undefined && override !== '') {
    const workers = Number(override);
    if (!Number.isInteger(workers) || workers < 1) throw new Error(`CONSENTRY_TEST_WORKERS must be a whole number of at least 1, not "${override}"`);
    return workers;
  }
  return Math.max(1, cores - 1);
}
