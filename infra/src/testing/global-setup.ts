// Vitest's global setup for `npm test`: one headless Chromium for the whole run. Test files connect to
// it (launchChromium without extra arguments) instead of starting their own, each in its own
// contexts; a file that needs other flags (a browser language) still launches its own.
import { existsSync } from 'node:fs';
import { chromium, type BrowserServer } from 'playwright-core';
import { chromiumArgs, chromiumPath, sharedChromiumVariable } from './browser';

export default async function setup(): Promise<() => Promise<void>> {
  if (!existsSync(chromiumPath) || process.env[sharedChromiumVariable]) return async () => {};
  const server: BrowserServer = await chromium.launchServer({ executablePath: chromiumPath, headless: true, args: [...chromiumArgs] });
  // Workers are started after the global setup and inherit the environment.
  process.env[sharedChromiumVariable] = server.wsEndpoint();
  return async () => {
    delete process.env[sharedChromiumVariable];
    await server.close();
  };
}
