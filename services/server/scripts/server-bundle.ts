// The server as JavaScript: esbuild bundles services/server/src/cli.ts with every workspace module it
// imports into services/server/dist/ (cli.mjs and chunks, with source maps), so a start loads
// compiled code instead of transpiling ~280 TypeScript files in every process. Packages from
// node_modules stay imports: they are JavaScript already, and some find files beside themselves.
// Each command stays its own chunk, so `consentry help` loads no more than before.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { distDir, entryPath, manifestPath, readManifest, repoRoot, stamp, type BuildManifest } from '../bin/build-manifest.mjs';

const entry = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
/** Files that decide the output besides the sources: this script, and the versions installed. */
const buildInputs = [fileURLToPath(import.meta.url), path.join(repoRoot, 'package-lock.json')];

/** Packages from node_modules are imported at run time; only the workspaces (@consentry/*) are bundled. */
const externalPackages: Plugin = {
  name: 'consentry-external-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@consentry/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * `import.meta.url` names the file a module was written in (migrations and data files are found
 * from it). Bundled, every module would share its chunk's URL, so each use is rewritten to the
 * source file's URL, worked out from the chunk's at run time: the checkout may move after a build.
 */
const sourceFileUrls = (outDir: string): Plugin => ({
  name: 'consentry-source-file-urls',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromChunk = path.relative(outDir, args.path).split(path.sep).join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromChunk)}, import.meta.url).href`), loader: 'ts' };
    });
  },
});

/** The bundle, in memory: what buildServer writes to dist/ (outDir only decides the paths). */
export function bundleServer(outDir = distDir) {
  return build({
    entryPoints: { cli: entry },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    splitting: true,
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    entryNames: '[name]',
    sourcemap: 'linked',
    // The maps name the TypeScript files in the checkout; their text stays there.
    sourcesContent: false,
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [externalPackages, sourceFileUrls(outDir)],
  });
}

export interface ServerBuild {
  readonly inputs: number;
  readonly ms: number;
}

/**
 * Bundles the server into dist/. Chunks are named by their content, and cli.mjs and build.json are
 * replaced by renames, so two builds at once (two commands started together) write the same files
 * and a command starting meanwhile sees one build or the other, never half of one.
 */
export async function buildServer(): Promise<ServerBuild> {
  const started = performance.now();
  const previous = readManifest();
  const result = await bundleServer();

  mkdirSync(distDir, { recursive: true });
  const outputs: string[] = [];
  const temporary = (file: string) => `${file}.${randomUUID()}.tmp`;
  // Chunks first, the entry (whose imports name them) last.
  const ordered = [...result.outputFiles].sort((a, b) => Number(a.path.startsWith(entryPath)) - Number(b.path.startsWith(entryPath)));
  for (const file of ordered) {
    const scratch = temporary(file.path);
    writeFileSync(scratch, file.contents);
    renameSync(scratch, file.path);
    outputs.push(path.relative(distDir, file.path));
  }

  const inputs: Record<string, [number, number]> = {};
  for (const input of [...Object.keys(result.metafile.inputs).map((file) => path.resolve(repoRoot, file)), ...buildInputs]) {
    inputs[path.relative(repoRoot, input).split(path.sep).join('/')] = stamp(input);
  }
  const manifest: BuildManifest = { version: 1, inputs, outputs };
  const scratch = temporary(manifestPath);
  writeFileSync(scratch, `${JSON.stringify(manifest, null, 1)}\n`);
  renameSync(scratch, manifestPath);

  // What the build before this one wrote and this one did not (old chunks) goes.
  for (const old of previous?.outputs ?? []) {
    if (!outputs.includes(old)) rmSync(path.join(distDir, old), { force: true });
  }
  return { inputs: Object.keys(inputs).length, ms: performance.now() - started };
}
