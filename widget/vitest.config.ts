// The widget's test project ('widget'), picked up by the repository's root vitest config: unit tests in a
// simulated browser (happy-dom), and end-to-end tests (*.e2e.test.ts) that build the bundles and drive
// them in real headless Chromium; those say `@vitest-environment node` in their first lines.
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'widget',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.unit.test.ts', '**/*.e2e.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    environment: 'happy-dom',
    environmentOptions: {
      happyDOM: {
        // A customer's page; the widget is served from another origin in the tests.
        url: 'https://shop.example.com/',
        // Script elements are asserted on, never run or fetched (the e2e tests run them for real).
        settings: { disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true },
      },
    },
  },
});
