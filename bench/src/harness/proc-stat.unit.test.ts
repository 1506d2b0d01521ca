import { describe, expect, it } from 'vitest';
import { parseMachineCpu, parseProcStat, processTreeOf, readRssBytes, treeCpuTicks, treeRssBytes, type ProcStat } from './proc-stat';

const statLine = (pid: number, comm: string, ppid: number, [utime, stime, cutime, cstime]: number[]) =>
  `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194368 730 0 1 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 1 0 5293 222994432 8181 18446744073709551615 0 0 0`;

const tableOf = (stats: ProcStat[]) => new Map(stats.map((stat) => [stat.pid, stat]));

describe('parseProcStat', () => {
  it('reads the parent and the four CPU times of a /proc/<pid>/stat line', () => {
    expect(parseProcStat(statLine(2212, 'postgres', 2211, [23, 35, 4, 6]))).toEqual({
      pid: 2212,
      comm: 'postgres',
      ppid: 2211,
      utime: 23,
      stime: 35,
      cutime: 4,
      cstime: 6,
    });
  });

  it('finds the fields after a command name holding spaces and parentheses', () => {
    expect(parseProcStat(`${statLine(77, 'a) S 1 (b', 9, [1, 2, 3, 4])}\n`)).toMatchObject({ pid: 77, comm: 'a) S 1 (b', ppid: 9, utime: 1, cstime: 4 });
  });

  it('refuses text that is not a stat line', () => {
    expect(() => parseProcStat('no such process')).toThrow('not a /proc/<pid>/stat line');
    expect(() => parseProcStat('12 (short) S 1 2 3')).toThrow('has no field 14');
  });
});

describe('a process tree', () => {
  const table = tableOf([
    parseProcStat(statLine(1, 'init', 0, [1000, 1000, 0, 0])),
    parseProcStat(statLine(10, 'node', 1, [300, 100, 50, 10])),
    parseProcStat(statLine(11, 'node', 10, [200, 40, 0, 0])),
    parseProcStat(statLine(12, 'chromium', 11, [7, 3, 0, 0])),
    parseProcStat(statLine(20, 'postgres', 1, [5, 5, 900, 100])),
  ]);

  it('is the root and every live process below it', () => {
    expect(processTreeOf(10, table).map((stat) => stat.pid).sort((a, b) => a - b)).toEqual([10, 11, 12]);
    expect(processTreeOf(99, table)).toEqual([]);
  });

  it('used the time of its members and of their ended children', () => {
    // 300 + 100 + 50 + 10, 200 + 40, 7 + 3
    expect(treeCpuTicks(10, table)).toBe(710);
    expect(treeCpuTicks(99, table)).toBe(0);
  });
});

describe('parseMachineCpu', () => {
  it('adds up the busy modes of all CPUs and leaves idle and iowait out', () => {
    const procStat = 'cpu  349393 7 96087 157337 1100 3 1884 11 5 0\ncpu0 174000 0 48000 78000 500 0 900 0 0 0\nintr 1 2 3\n';
    expect(parseMachineCpu(procStat)).toEqual({ busyTicks: 349393 + 7 + 96087 + 3 + 1884 + 11, totalTicks: 349393 + 7 + 96087 + 3 + 1884 + 11 + 157337 + 1100 });
  });

  it('refuses text without the cpu line', () => {
    expect(() => parseMachineCpu('intr 1 2 3')).toThrow('/proc/stat has no cpu line');
  });
});

describe('resident memory', () => {
  it("reads this process's RSS, and a tree's as at least its root's", () => {
    const own = readRssBytes(process.pid);
    expect(own).toBeGreaterThan(1024 * 1024);
    expect(treeRssBytes(process.pid)).toBeGreaterThanOrEqual(own);
    expect(readRssBytes(2 ** 22 + 1)).toBe(0);
  });
});
