// The order `npm test` hands files to its workers. Two files run at once (testWorkers), so the run
// ends when the last long file does: long files must start early, and the short ones fill in at the
// end. vitest's own order puts files it has no timings for (every file on a clean clone, as in CI)
// largest first, which started a 25 s browser test last (issue 34). Here, within each project (a
// worker is reused only within one, so projects stay together), files whose timings vitest cached
// keep its order (longest first); the others go end-to-end tests first, then integration tests,
// then unit tests, each largest first.
import { statSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** How long a file is likely to take, by its kind: e2e (3) before int (2) before unit (1). */
export function kindWeight(file: string): number {
  if (/\.e2e\.test\.tsx?$/.test(file)) return 3;
  if (/\.int\.test\.tsx?$/.test(file)) return 2;
  return 1;
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const cached = (spec: TestSpecification) => cache.getFileTestResults(`${spec.project.name}:${spec.moduleId.slice(root.length + 1)}`)?.duration;
    const size = (spec: TestSpecification) => {
      try {
        return statSync(spec.moduleId).size;
      } catch {
        return 0;
      }
    };
    const projects = [...new Set(files.map((spec) => spec.project.name))].sort();
    return projects.flatMap((project) =>
      files
        .filter((spec) => spec.project.name === project)
        .map((spec) => ({ spec, duration: cached(spec), weight: kindWeight(spec.moduleId), size: size(spec) }))
        .sort((a, b) => {
          if (a.duration !== undefined && b.duration !== undefined) return b.duration - a.duration;
          return b.weight - a.weight || b.size - a.size;
        })
        .map(({ spec }) => spec),
    );
  }
}
