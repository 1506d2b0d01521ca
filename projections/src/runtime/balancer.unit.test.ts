import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { preferredProcess } from './balancer';

const locks = ['consent-stats', 'consent-records', 'consent-dimensions', 'consent-purposes', 'website-activity', 'analytics'].flatMap((name) =>
  [0, 1, 2, 3].map((index) => `consentry:projection:${name}/p${index}of4`),
);

describe('the process preferred for a partition', () => {
  it('is one of the processes, the same whichever order they are listed in', () => {
    const processes = [randomUUID(), randomUUID(), randomUUID()];
    for (const lock of locks) {
      const preferred = preferredProcess(processes, lock);
      expect(processes).toContain(preferred);
      expect(preferredProcess([...processes].reverse(), lock)).toBe(preferred);
    }
    expect(preferredProcess([], locks[0]!)).toBeUndefined();
  });

  it('gives every process a share of 24 partitions', () => {
    // Fixed ids, so the test says the same every run.
    for (let round = 0; round < 20; round++) {
      const processes = [`0c6f${round}a1e-6d3b-4c39-9a6e-2f0b5e${round}17c0a`, `7d1e${round}b42-1f0a-4e5d-8b3c-9e6a1d${round}40f7e`];
      const shares = processes.map((id) => locks.filter((lock) => preferredProcess(processes, lock) === id).length);
      for (const share of shares) expect(share).toBeGreaterThanOrEqual(4);
    }
  });

  it('moves only the partitions of a process that comes or goes', () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    for (const lock of locks) {
      const withThree = preferredProcess([a, b, c], lock);
      const withoutC = preferredProcess([a, b], lock);
      if (withThree !== c) expect(withoutC).toBe(withThree);
    }
  });
});
