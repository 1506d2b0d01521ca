// One test command for the whole repository (`npm test`). Node-side packages share the 'node'
// project; web and widget bring their own configs (browser-like environments). Each test file uses
// its own database, bus streams and ports, so files may run side by side (testWorkers). The
// scenario tests in `slowTestFiles` run apart, in `npm run test:slow` (vitest.slow.config.ts),
// which .ci/run also runs.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { slowTestFiles, testIsolation, testWorkers } from './vitest.shared.ts';
import { LongestFirstSequencer } from './vitest.sequencer.ts';

const browserProjects = ['web', 'widget'].filter((dir) => existsSync(`${dir}/vitest.config.ts`));

export default defineConfig({
  test: {
    maxWorkers: testWorkers(availableParallelism()),
    sequence: { sequencer: LongestFirstSequencer },
    globalSetup: ['./infra/src/testing/global-setup.ts'],
    projects: [
      {
        test: {
          name: 'node',
          include: ['{events,infra,projections,services,e2e,bench}/**/*.test.ts', 'vitest.*.test.ts'],
          exclude: ['**/node_modules/**', ...slowTestFiles],
          environment: 'node',
          isolate: testIsolation(),
          testTimeout: 60_000,
          // expect.poll waits for what a browser or a projection shows; its 1 s default is a clock,
          // not a correctness bound, and two test files share two cores (machines are noisy).
          expect: { poll: { timeout: 10_000 } },
          hookTimeout: 60_000,
        },
      },
      ...browserProjects.map((dir) => `${dir}/vitest.config.ts`),
    ],
  },
});
