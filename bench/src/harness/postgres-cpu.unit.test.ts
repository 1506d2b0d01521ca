import { describe, expect, it } from 'vitest';
import { createPostgresCpuAccount, type ServerActivity } from './postgres-cpu';
import type { ProcStat } from './proc-stat';

const postmaster = 100;
const serverProcess = (pid: number, ppid: number, utime: number, cutime = 0): ProcStat => ({ pid, comm: 'postgres', ppid, utime, stime: 0, cutime, cstime: 0 });
const tableOf = (...stats: ProcStat[]) => new Map(stats.map((stat) => [stat.pid, stat]));
const activity = (pid: number, database: string | null, applicationName = 'consentry'): ServerActivity => ({ pid, database, applicationName });

describe('PostgreSQL CPU for one database', () => {
  const account = () => createPostgresCpuAccount({ postmasterPid: postmaster, database: 'bench', excludeApplicationNames: ['bench meter'] });

  it('charges the database its backends, the shared processes and the postmaster what they used since the first sample', () => {
    const cpu = account();
    const background = [activity(2, null), activity(3, 'bench'), activity(4, 'other'), activity(5, 'bench', 'bench meter')];
    cpu.add(tableOf(serverProcess(postmaster, 1, 10), serverProcess(2, postmaster, 50), serverProcess(3, postmaster, 70), serverProcess(4, postmaster, 5), serverProcess(5, postmaster, 1)), background);
    cpu.add(tableOf(serverProcess(postmaster, 1, 12), serverProcess(2, postmaster, 58), serverProcess(3, postmaster, 170), serverProcess(4, postmaster, 500), serverProcess(5, postmaster, 30)), background);
    expect(cpu.totals()).toEqual({ databaseTicks: 100, sharedTicks: 2 + 8, clusterTicks: 2 + 8 + 100 + 495 + 29 });
  });

  it('counts the whole life of a backend born after the first sample, up to its last sample', () => {
    const cpu = account();
    cpu.add(tableOf(serverProcess(postmaster, 1, 10)), []);
    // Not yet authenticated: no database in pg_stat_activity.
    cpu.add(tableOf(serverProcess(postmaster, 1, 10), serverProcess(7, postmaster, 3)), [activity(7, null)]);
    cpu.add(tableOf(serverProcess(postmaster, 1, 10), serverProcess(7, postmaster, 40)), [activity(7, 'bench')]);
    // It ended: its time moved into the postmaster's children's time, which only the cluster counts.
    cpu.add(tableOf(serverProcess(postmaster, 1, 10, 45)), []);
    expect(cpu.totals()).toEqual({ databaseTicks: 40, sharedTicks: 0, clusterTicks: 45 });
  });

  it('keeps a process of the first sample that ended out of the cluster figure twice', () => {
    const cpu = account();
    cpu.add(tableOf(serverProcess(postmaster, 1, 10), serverProcess(8, postmaster, 20)), [activity(8, 'other')]);
    cpu.add(tableOf(serverProcess(postmaster, 1, 10, 25)), []);
    expect(cpu.totals()).toEqual({ databaseTicks: 0, sharedTicks: 0, clusterTicks: 5 });
  });

  it('refuses a sample without the postmaster', () => {
    expect(() => account().add(tableOf(serverProcess(2, postmaster, 1)), [])).toThrow('the postmaster (pid 100) is gone');
  });
});
