// One test command for the whole repository. Node-side packages share one project; web and widget
// bring their own configs (browser-like environments) when they exist.
import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const browserProjects = ['web', 'widget'].filter((dir) => existsSync(`${dir}/vitest.config.ts`));

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['{events,infra,projections,services,e2e,bench}/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      ...browserProjects.map((dir) => `${dir}/vitest.config.ts`),
    ],
  },
});
