// The production build of the server (server-bundle.ts) and the freshness check the `consentry`
// command makes before running it (bin/build-manifest.mjs).
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { distDir, isBundleFresh, stamp, type BuildManifest } from '../bin/build-manifest.mjs';
import { bundleServer } from './server-bundle';

describe('the server bundle', () => {
  it("points every import.meta.url at the source file it was written in, from the chunk's own URL", async () => {
    const result = await bundleServer();
    const rewritten = result.outputFiles
      .filter((file) => file.path.endsWith('.mjs'))
      .flatMap((file) => [...file.text.matchAll(/new URL\("([^"]+\.ts)", import\.meta\.url\)/g)].map((match) => ({ chunk: file.path, source: match[1]! })));
    // migrate.ts finds the migrations, heartbeat.ts the version, the scanner its cookie database.
    expect(rewritten.map(({ source }) => path.basename(source))).toEqual(expect.arrayContaining(['migrate.ts', 'heartbeat.ts', 'database.ts']));
    for (const { chunk, source } of rewritten) expect(existsSync(fileURLToPath(new URL(source, `file://${chunk}`))), source).toBe(true);
    // None is left as it was: it would name the chunk, in dist/, where no migrations are.
    const bare = result.outputFiles.filter((file) => file.path.endsWith('.mjs') && /(?<!, )import\.meta\.url(?!\))/.test(file.text.replaceAll(/new URL\("[^"]+", import\.meta\.url\)/g, '')));
    expect(bare.map((file) => path.relative(distDir, file.path))).toEqual([]);
  });

  it('imports packages from node_modules and bundles only the workspaces', async () => {
    const result = await bundleServer();
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.includes('node_modules'))).toBe(false);
    expect(inputs).toEqual(expect.arrayContaining(['services/server/src/cli.ts', 'infra/src/db/migrate.ts', 'services/api/src/app.ts']));
    // Each command is its own chunk, loaded when it runs: what the entry loads up front (it and its
    // static imports) holds the usage, not `start`.
    const byName = new Map(result.outputFiles.map((file) => [path.basename(file.path), file.text]));
    const loaded = new Set(['cli.mjs']);
    for (const name of loaded) for (const match of (byName.get(name) ?? '').matchAll(/from "\.\/([^"]+\.mjs)";/g)) loaded.add(match[1]!);
    expect(loaded.size).toBeGreaterThan(1);
    const upFront = [...loaded].map((name) => byName.get(name) ?? '').join('\n');
    expect(upFront).toContain('Usage: consentry <command>');
    expect(upFront).not.toContain('Consentry is running at');
    expect(result.outputFiles.some((file) => file.text.includes('Consentry is running at'))).toBe(true);
  });
});

describe('the freshness check', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'consentry-bundle-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, 'src'));
  const source = path.join(root, 'src', 'a.ts');
  const entry = path.join(root, 'cli.mjs');
  writeFileSync(source, 'export const a = 1;\n');
  writeFileSync(entry, '');
  const manifest = (): BuildManifest => ({ version: 1, inputs: { 'src/a.ts': stamp(source) }, outputs: ['cli.mjs'] });

  it('holds while every input is as it was built', () => {
    expect(isBundleFresh(manifest(), root, entry)).toBe(true);
  });

  it('fails when an input was saved again, changed size, or went', () => {
    const built = manifest();
    const later = new Date(Date.now() + 5000);
    utimesSync(source, later, later);
    expect(isBundleFresh(built, root, entry)).toBe(false);
    const saved = manifest();
    writeFileSync(source, 'export const a = 22;\n');
    utimesSync(source, later, later);
    expect(isBundleFresh(saved, root, entry)).toBe(false);
    rmSync(source);
    expect(isBundleFresh(saved, root, entry)).toBe(false);
  });

  it('fails without a manifest or without the entry', () => {
    writeFileSync(source, 'export const a = 1;\n');
    expect(isBundleFresh(undefined, root, entry)).toBe(false);
    expect(isBundleFresh(manifest(), root, path.join(root, 'missing.mjs'))).toBe(false);
  });
});
