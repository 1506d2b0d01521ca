// Lint rules for the whole repository: typescript-eslint's recommended rules plus a few that catch
// real bugs in async server code (floating promises are how acknowledged consents get lost).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'web/src/routeTree.gen.ts', 'web/src/lib/api-schema.gen.ts', 'coverage/**', 'bench/src/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'widget/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
