// The web app's API types (web/src/lib/api-schema.gen.ts) are generated from the api's OpenAPI
// document (`npm run gen:api -w @consentry/web`, which runs `consentry openapi` and openapi-typescript).
// Generated again from the current routes, they must be the committed file: a change of the api's
// contract that the app was not regenerated for fails here, not in a browser. Whole processes, no database.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const generatedFile = 'web/src/lib/api-schema.gen.ts';

/** The first line where the two texts differ, with both versions of it; null when they are the same. */
function firstDifference(committed: string, generated: string): string | null {
  if (committed === generated) return null;
  const committedLines = committed.split('\n');
  const generatedLines = generated.split('\n');
  const index = committedLines.findIndex((line, at) => line !== generatedLines[at]);
  const at = index === -1 ? committedLines.length : index;
  return `${generatedFile} is out of date (run \`npm run gen:api -w @consentry/web\`); line ${at + 1} is\n  committed: ${committedLines[at] ?? '(end of file)'}\n  generated: ${generatedLines[at] ?? '(end of file)'}`;
}

describe("the web app's API types", () => {
  it("are what the api's current OpenAPI document generates", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'web/scripts/gen-api-types.ts', '--stdout'], {
      cwd: repoRoot,
      maxBuffer: 64 * 1024 * 1024,
    });
    const committed = await readFile(path.join(repoRoot, generatedFile), 'utf8');
    expect(firstDifference(committed, stdout)).toBeNull();
  }, 180_000);
});
