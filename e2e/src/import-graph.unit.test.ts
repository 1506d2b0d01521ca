// The import graph the architecture promises (docs/architecture.md, "Layers"): a workspace reaches
// another only through its package name and declared entry points, never into its src/ by a relative
// path; each workspace imports only the layers below it, and declares every one it imports.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Each workspace, and the workspaces it may import (its runtime code and its tests alike). */
const allowed: Record<string, readonly string[]> = {
  events: [],
  infra: ['events'],
  projections: ['events', 'infra'],
  'services/ingest': ['events', 'infra', 'projections'],
  'services/api': ['events', 'infra', 'projections'],
  'services/jobs': ['events', 'infra', 'projections'],
  'services/server': ['events', 'infra', 'projections', 'services/ingest', 'services/api', 'services/jobs', 'web', 'widget'],
  // Shipped browser code imports none of these (see below); web's and widget's tests may.
  web: ['events'],
  widget: ['events', 'infra'],
  e2e: ['events', 'infra', 'projections', 'services/ingest', 'services/api', 'services/jobs', 'services/server', 'web', 'widget'],
  bench: ['events', 'infra', 'projections', 'services/ingest', 'services/api', 'services/jobs', 'services/server', 'widget'],
};

const workspaces = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
const nameOf = new Map(workspaces.map((dir) => [(JSON.parse(readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8')) as { name: string }).name, dir]));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'fixtures'].includes(entry.name) ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs)$/.test(entry.name) && !entry.name.endsWith('.gen.ts') ? [full] : [];
  });
}

/** Every module specifier of a file: static imports and exports, dynamic import() and vi.mock(). */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push((match[1] ?? match[2] ?? match[3])!);
  }
  return found;
}

function workspaceOf(file: string): string | undefined {
  const relative = path.relative(repoRoot, file);
  return workspaces.filter((dir) => relative === dir || relative.startsWith(`${dir}/`)).sort((a, b) => b.length - a.length)[0];
}

const files = workspaces.flatMap((dir) => sourceFiles(path.join(repoRoot, dir)).map((file) => ({ file, workspace: dir })));

describe('the import graph', () => {
  it('has every workspace in the table of allowed layers', () => {
    expect(Object.keys(allowed).sort()).toEqual([...workspaces].sort());
  });

  it('reaches no other workspace by a relative path', () => {
    const crossings = files.flatMap(({ file, workspace }) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.'))
        .filter((spec) => workspaceOf(path.resolve(path.dirname(file), spec)) !== workspace)
        .map((spec) => `${path.relative(repoRoot, file)} -> ${spec}`),
    );
    expect(crossings).toEqual([]);
  });

  it('imports only the layers below, each declared in package.json', () => {
    const problems = files.flatMap(({ file, workspace }) => {
      const manifest = JSON.parse(readFileSync(path.join(repoRoot, workspace, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
      const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
      return specifiers(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('@consentry/'))
        .flatMap((spec) => {
          const name = spec.split('/').slice(0, 2).join('/');
          const target = nameOf.get(name);
          if (target === undefined) return [`${path.relative(repoRoot, file)}: ${spec} is no workspace`];
          if (target === workspace) return [];
          if (!allowed[workspace]!.includes(target)) return [`${path.relative(repoRoot, file)}: ${workspace} may not import ${spec}`];
          if (!declared.has(name)) return [`${path.relative(repoRoot, file)}: ${spec} is not in ${workspace}/package.json`];
          return [];
        });
    });
    expect(problems).toEqual([]);
  });

  it('ships browser code that imports no server-side workspace', () => {
    // What runs in a visitor's or an owner's browser talks HTTP only; tests and build scripts may
    // share the catalogue's texts and the test helpers.
    const browserSafe = new Set(['@consentry/events/contracts']);
    const shipped = files.filter(({ file, workspace }) => ['web', 'widget'].includes(workspace) && file.includes('/src/') && !/\.test(-helper)?\.tsx?$/.test(file));
    const problems = shipped.flatMap(({ file }) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('@consentry/') && !browserSafe.has(spec))
        .map((spec) => `${path.relative(repoRoot, file)} -> ${spec}`),
    );
    expect(problems).toEqual([]);
  });

  it('gives the workers no HTTP service, web app or widget to depend on', () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'services/jobs/package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const names = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
    expect(names.filter((name) => ['@consentry/api', '@consentry/ingest', '@consentry/web', '@consentry/widget', '@consentry/server'].includes(name))).toEqual([]);
  });
});
