// The order `npm test` starts its files in (vitest.sequencer.ts): long files first, so that the two
// workers finish together; projects stay together, since a worker is reused only within one.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import { kindWeight, LongestFirstSequencer } from './vitest.sequencer.ts';

const root = fileURLToPath(new URL('./', import.meta.url));

function sequencer(durations: Record<string, number> = {}) {
  const ctx = {
    config: { root: root.replace(/\/$/, '') },
    cache: { getFileTestResults: (key: string) => (key in durations ? { duration: durations[key], failed: false } : undefined) },
  };
  return new LongestFirstSequencer(ctx as never);
}

const spec = (project: string, file: string) => ({ project: { name: project }, moduleId: path.join(root, file) }) as unknown as TestSpecification;
const names = (specs: TestSpecification[]) => specs.map((one) => `${one.project.name}:${path.relative(root, one.moduleId)}`);

describe('the order of test files', () => {
  it('weighs end-to-end over integration over unit tests', () => {
    expect([kindWeight('a.e2e.test.ts'), kindWeight('a.int.test.ts'), kindWeight('a.unit.test.tsx'), kindWeight('a.test.ts')]).toEqual([3, 2, 1, 1]);
  });

  it('without timings: projects together, then e2e, int and unit files, each largest first', async () => {
    const files = [
      spec('web', 'web/src/lib/api.unit.test.ts'),
      spec('node', 'e2e/src/import-graph.unit.test.ts'),
      spec('node', 'e2e/src/security-headers.int.test.ts'),
      spec('widget', 'widget/src/identify.e2e.test.ts'),
      spec('node', 'e2e/src/web-csp.e2e.test.ts'),
      spec('node', 'e2e/src/web-host.e2e.test.ts'),
    ];
    expect(names(await sequencer().sort(files))).toEqual([
      'node:e2e/src/web-csp.e2e.test.ts',
      'node:e2e/src/web-host.e2e.test.ts',
      'node:e2e/src/security-headers.int.test.ts',
      'node:e2e/src/import-graph.unit.test.ts',
      'web:web/src/lib/api.unit.test.ts',
      'widget:widget/src/identify.e2e.test.ts',
    ]);
  });

  it('with timings from an earlier run: the longest first', async () => {
    const files = [spec('node', 'e2e/src/web-csp.e2e.test.ts'), spec('node', 'e2e/src/import-graph.unit.test.ts')];
    const timed = sequencer({ 'node:e2e/src/web-csp.e2e.test.ts': 1_000, 'node:e2e/src/import-graph.unit.test.ts': 9_000 });
    expect(names(await timed.sort(files))).toEqual(['node:e2e/src/import-graph.unit.test.ts', 'node:e2e/src/web-csp.e2e.test.ts']);
  });
});
