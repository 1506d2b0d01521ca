export interface BuildManifest {
  readonly version: 1;
  /** Path from the repository's root → [size, whole milliseconds of its modification time]. */
  readonly inputs: Record<string, readonly [number, number]>;
  /** The files the build wrote, relative to dist/. */
  readonly outputs: readonly string[];
}

export const repoRoot: string;
export const distDir: string;
export const manifestPath: string;
export const entryPath: string;
export function readManifest(): BuildManifest | undefined;
export function stamp(file: string): [number, number];
export function isBundleFresh(manifest?: BuildManifest, root?: string, entry?: string): boolean;
