// The README promises a Node.js version; every package the lockfile installs must accept it, or
// `npm install` warns EBADENGINE and the promise is untrue (cookie@2, content-disposition@3 and
// @nats-io/nuid@3 declare Node 22; the root package.json overrides them with versions of the same API).
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
const readText = (path: string) => readFileSync(new URL(path, root), 'utf8');

interface LockedPackage {
  readonly version?: string;
  readonly engines?: { readonly node?: string } | readonly string[];
  readonly optional?: boolean;
}

describe('the Node.js version the README promises', () => {
  const promised = /Node\.js (\d+\.\d+) or newer/.exec(readText('README.md'))?.[1];
  const lock = JSON.parse(readText('package-lock.json')) as { packages: Record<string, LockedPackage> };
  const rootManifest = JSON.parse(readText('package.json')) as { engines: { node: string } };

  it('is stated in the README and matches the root package.json', () => {
    expect(promised).toBeDefined();
    expect(semver.minVersion(rootManifest.engines.node)?.version).toBe(`${promised}.0`);
  });

  it('is accepted by every package in the lockfile', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path.startsWith('node_modules/') || path.includes('/node_modules/'))
      .flatMap(([path, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : (entry.engines as { node?: string } | undefined)?.node;
        if (range === undefined) return [];
        return semver.satisfies(`${promised}.0`, range, { includePrerelease: true }) ? [] : [`${path}@${entry.version} needs node ${range}`];
      });
    expect(refusing).toEqual([]);
  });
});
