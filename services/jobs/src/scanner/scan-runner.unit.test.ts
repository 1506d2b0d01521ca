// How many scans a process runs at once: SCAN_RUNNERS as set, or with `auto` what the machine's free
// memory and cores allow, from one to four.
import { describe, expect, it } from 'vitest';
import { maxAutoScanRunners, memoryPerScanRunnerMiB, scanRunnerCount } from './scan-runner';

const gib = 1024 * 1024 * 1024;

describe('the number of scan runners', () => {
  it('is what SCAN_RUNNERS says when it names one', () => {
    expect(scanRunnerCount(3, { availableBytes: 0.5 * gib, cores: 1 })).toBe(3);
  });

  it('with auto, is one per memoryPerScanRunnerMiB available and per core, from 1 to 4', () => {
    expect(memoryPerScanRunnerMiB).toBe(1024);
    expect(scanRunnerCount('auto', { availableBytes: 0.6 * gib, cores: 8 })).toBe(1);
    expect(scanRunnerCount('auto', { availableBytes: 2.5 * gib, cores: 8 })).toBe(2);
    expect(scanRunnerCount('auto', { availableBytes: 3 * gib, cores: 8 })).toBe(3);
    expect(scanRunnerCount('auto', { availableBytes: 64 * gib, cores: 2 })).toBe(2);
    expect(scanRunnerCount('auto', { availableBytes: 64 * gib, cores: 64 })).toBe(maxAutoScanRunners);
    expect(maxAutoScanRunners).toBe(4);
  });
});
