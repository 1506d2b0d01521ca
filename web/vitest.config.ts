// The web project of the repository's test run: component and unit tests of the React app in a
// browser-like DOM. The root vitest config picks this file up when it exists.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineProject({
  root: webRoot,
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    // Modules and the DOM are shared across files, as in the node project (vitest.shared.ts,
    // testIsolation, which also checks the variable's value).
    isolate: process.env.CONSENTRY_TEST_ISOLATE === '1',
    include: ['src/**/*.unit.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Radix interactions through user-event take seconds in jsdom; on a busy 2-core machine the
    // default 5 s made long state-machine tests fail on time alone.
    testTimeout: 15_000,
    unstubGlobals: true,
  },
});
