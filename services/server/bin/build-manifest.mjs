// The server bundle's manifest, services/server/dist/build.json: every file that went into the bundle
// (paths from the repository's root) with its size and modification time, and the files the build
// wrote. The bundle is fresh while every input is unchanged. Plain JavaScript, because the
// `consentry` command reads it before anything could compile TypeScript.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const distDir = fileURLToPath(new URL('../dist/', import.meta.url));
export const manifestPath = path.join(distDir, 'build.json');
export const entryPath = path.join(distDir, 'cli.mjs');

/** The manifest, or undefined when there is none (never built) or it is unreadable. */
export function readManifest() {
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (manifest && manifest.version === 1 && typeof manifest.inputs === 'object' && Array.isArray(manifest.outputs)) return manifest;
  } catch {
    // No manifest yet, or a broken one: either way the bundle is built again.
  }
  return undefined;
}

/** The size and modification time the manifest records for one file. */
export function stamp(file) {
  const stats = statSync(file);
  return [stats.size, Math.trunc(stats.mtimeMs)];
}

/**
 * Whether the bundle was built from the sources as they are now (no input changed, moved or went).
 * The root and entry are parameters for the tests.
 */
export function isBundleFresh(manifest = readManifest(), root = repoRoot, entry = entryPath) {
  if (!manifest) return false;
  try {
    statSync(entry);
    for (const [file, [size, mtime]] of Object.entries(manifest.inputs)) {
      const [nowSize, nowMtime] = stamp(path.join(root, file));
      if (nowSize !== size || nowMtime !== mtime) return false;
    }
    return true;
  } catch {
    return false;
  }
}
