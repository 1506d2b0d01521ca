// The three parts of the production build, each built only when out of date. The server knows its
// inputs exactly (esbuild's list, in dist/build.json); the widget and the web app are fingerprinted
// by the files of their folders and of @consentry/events, which they import (path, size and
// modification time of each), kept in their dist/ after a build. Each dist/ then gets the Brotli and
// gzip forms of its files (precompress.ts).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { isBundleFresh, repoRoot } from '../bin/build-manifest.mjs';
import { precompressDir } from './precompress';
import { buildServer } from './server-bundle';

export type Part = 'widget' | 'web' | 'server';

export interface PartResult {
  readonly part: Part;
  readonly built: boolean;
  readonly ms: number;
}

const run = promisify(execFile);
const stampFile = '.consentry-build';

interface FolderPart {
  readonly part: 'widget' | 'web';
  readonly workspace: string;
  readonly folder: string;
}

// The widget first: the web app does not need it, but `npm start` serves both.
const folderParts: readonly FolderPart[] = [
  { part: 'widget', workspace: '@consentry/widget', folder: 'widget' },
  { part: 'web', workspace: '@consentry/web', folder: 'web' },
];

/** Builds every part that is out of date (all of them with force), one after another. */
export async function buildStaleParts(options: { force?: boolean } = {}): Promise<PartResult[]> {
  const results: PartResult[] = [];
  for (const part of folderParts) results.push(await buildFolderPart(part, options.force ?? false));
  const started = performance.now();
  if (options.force || !isBundleFresh()) {
    await buildServer();
    results.push({ part: 'server', built: true, ms: performance.now() - started });
  } else {
    results.push({ part: 'server', built: false, ms: performance.now() - started });
  }
  return results;
}

async function buildFolderPart({ part, workspace, folder }: FolderPart, force: boolean): Promise<PartResult> {
  const started = performance.now();
  const stampPath = path.join(repoRoot, folder, 'dist', stampFile);
  const before = folderFingerprint([folder, 'events']);
  if (!force && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === before) {
    // Up to date, but perhaps built before its files had compressed forms: those are made now.
    await precompressDir(path.join(repoRoot, folder, 'dist'));
    return { part, built: false, ms: performance.now() - started };
  }
  try {
    await run('npm', ['run', 'build', '-w', workspace], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string };
    throw new Error(`the ${part} did not build:\n${output.stdout ?? ''}${output.stderr ?? ''}`);
  }
  await precompressDir(path.join(repoRoot, folder, 'dist'));
  // Taken again: a file saved while the build ran must make the next build run too.
  const after = folderFingerprint([folder, 'events']);
  if (after === before) writeFileSync(stampPath, before);
  return { part, built: true, ms: performance.now() - started };
}

/** What a build of these folders depends on: every file but tests, outputs and installed packages. */
export function folderFingerprint(folders: readonly string[]): string {
  const hash = createHash('sha256');
  const lock = path.join(repoRoot, 'package-lock.json');
  for (const file of [lock, ...folders.flatMap((folder) => filesUnder(path.join(repoRoot, folder)))]) {
    const stats = statSync(file);
    hash.update(`${path.relative(repoRoot, file)}\0${stats.size}\0${Math.trunc(stats.mtimeMs)}\n`);
  }
  return hash.digest('hex');
}

const skippedFolders = new Set(['node_modules', 'dist', 'test', 'coverage']);

function filesUnder(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!skippedFolders.has(entry.name)) files.push(...filesUnder(full));
    } else if (entry.isFile() && !/\.test\.tsx?$/.test(entry.name)) {
      files.push(full);
    }
  }
  return files;
}
