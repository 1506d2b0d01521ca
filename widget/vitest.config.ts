// The widget's test project ('widget'): unit tests in a simulated browser (happy-dom), picked up by the
// repository's root vitest config. Real-browser end-to-end tests live elsewhere (*.e2e.test.ts).
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'widget',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.unit.test.ts'],
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
