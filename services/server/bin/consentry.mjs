#!/usr/bin/env node
// The `consentry` command (`npm start`, `npm run consentry -- …`, the installed bin): runs the
// compiled server in services/server/dist/ (`npm run build`). When a source file changed since that
// build, it builds again first (a fraction of a second), so the command never runs stale code; where
// it cannot (a read-only installation), it says so and runs the TypeScript sources instead.
import { pathToFileURL } from 'node:url';
import { entryPath, isBundleFresh } from './build-manifest.mjs';

let entry = pathToFileURL(entryPath).href;
if (!isBundleFresh()) {
  const started = performance.now();
  const { register } = await import('tsx/esm/api');
  register();
  try {
    const { buildServer } = await import('../scripts/server-bundle.ts');
    await buildServer();
    process.stderr.write(`consentry: the server's sources changed since its build; built it again in ${Math.round(performance.now() - started)} ms\n`);
  } catch (error) {
    process.stderr.write(
      `consentry: the server's build is missing or older than its sources, and building it failed (${error instanceof Error ? error.message : String(error)}); ` +
        'running the TypeScript sources, which starts slower. Run `npm run build` to fix this.\n',
    );
    entry = new URL('../src/cli.ts', import.meta.url).href;
  }
}
// Stack traces name the TypeScript files and lines (the bundle's source maps).
process.setSourceMapsEnabled(true);
await import(entry);
