// `npm run test:slow`: the scenario tests `npm test` leaves out (vitest.shared.ts, slowTestFiles),
// one file at a time: each starts clusters or network namespaces and kills parts of them.
import { defineConfig } from 'vitest/config';
import { slowTestFiles } from './vitest.shared.ts';

export default defineConfig({
  test: {
    name: 'slow',
    include: [...slowTestFiles],
    environment: 'node',
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
