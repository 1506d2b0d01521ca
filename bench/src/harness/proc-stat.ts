// CPU time of processes from Linux's /proc, for benchmarks that charge a system's whole cost to the
// work it did: `/proc/<pid>/stat` holds a process's user and system time over all its threads, and
// the time of its children that ended and were waited for (cutime, cstime). So the CPU a process
// tree has used so far is the sum over its live members of all four: a member that ends moves its
// time into its parent's cutime/cstime and is still counted once (proc(5)).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  readonly pid: number;
  /** The executable's name as the kernel keeps it (at most 15 characters), e.g. `postgres`. */
  readonly comm: string;
  readonly ppid: number;
  /** In clock ticks (see `clockTicksPerSecond`). */
  readonly utime: number;
  readonly stime: number;
  /** Of children that ended and were waited for, in clock ticks. */
  readonly cutime: number;
  readonly cstime: number;
}

/** A process table: what `readProcessTable` read, by pid. */
export type ProcessTable = ReadonlyMap<number, ProcStat>;

/**
 * Parses the text of `/proc/<pid>/stat`. The command name sits in parentheses and may itself hold
 * spaces and parentheses, so the fields after it are found from its last `)`.
 */
export function parseProcStat(text: string): ProcStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  // After the name: state (field 3), ppid (4) … utime (14), stime (15), cutime (16), cstime (17).
  const fields = text.slice(close + 2).trim().split(' ');
  const field = (number: number) => {
    const value = Number(fields[number - 3]);
    if (!Number.isFinite(value)) throw new Error(`/proc/<pid>/stat has no field ${number}: ${text.slice(0, 80)}`);
    return value;
  };
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    ppid: field(4),
    utime: field(14),
    stime: field(15),
    cutime: field(16),
    cstime: field(17),
  };
}

/** The process `pid` now, or null when it is gone (or not visible). */
export function readProcStat(pid: number): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Every process visible in /proc now, or only those of `pids` (reading all of /proc takes a few
 * milliseconds of CPU). Processes that end while it reads are left out.
 */
export function readProcessTable(pids?: Iterable<number>): ProcessTable {
  const table = new Map<number, ProcStat>();
  for (const pid of pids ?? readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number)) {
    const stat = readProcStat(pid);
    if (stat) table.set(stat.pid, stat);
  }
  return table;
}

/** `root` and every live process below it, in no particular order (empty when `root` is gone). */
export function processTreeOf(root: number, table: ProcessTable): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const stat of table.values()) {
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(stat);
    else children.set(stat.ppid, [stat]);
  }
  const top = table.get(root);
  if (!top) return [];
  const tree: ProcStat[] = [];
  const pending = [top];
  for (let stat = pending.pop(); stat; stat = pending.pop()) {
    tree.push(stat);
    pending.push(...(children.get(stat.pid) ?? []));
  }
  return tree;
}

/** CPU (user + system) the tree under `root` has used so far, ended members included, in ticks. */
export function treeCpuTicks(root: number, table: ProcessTable): number {
  return processTreeOf(root, table).reduce((sum, stat) => sum + ownCpuTicks(stat) + stat.cutime + stat.cstime, 0);
}

/** Resident memory of process `pid` now, in bytes (VmRSS of `/proc/<pid>/status`); 0 when it is gone. */
export function readRssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of `root` and every live process below it, in bytes. */
export function treeRssBytes(root: number, table: ProcessTable = readProcessTable()): number {
  return processTreeOf(root, table).reduce((sum, stat) => sum + readRssBytes(stat.pid), 0);
}

/** CPU (user + system, all threads) the process itself has used, without its children, in ticks. */
export const ownCpuTicks = (stat: ProcStat) => stat.utime + stat.stime;

/** The whole machine's CPU time so far, in ticks: busy (every CPU, all modes but idle and iowait) and all. */
export interface MachineCpu {
  readonly busyTicks: number;
  readonly totalTicks: number;
}

/** Parses the `cpu` line (all CPUs together) of /proc/stat. */
export function parseMachineCpu(procStat: string): MachineCpu {
  const line = procStat.split('\n').find((candidate) => candidate.startsWith('cpu '));
  if (!line) throw new Error('/proc/stat has no cpu line');
  // user nice system idle iowait irq softirq steal guest guest_nice; guest time is inside user.
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const busyTicks = [user, nice, system, irq, softirq, steal].reduce<number>((sum, value) => sum + (value ?? 0), 0);
  return { busyTicks, totalTicks: busyTicks + (idle ?? 0) + (iowait ?? 0) };
}

export const readMachineCpu = (): MachineCpu => parseMachineCpu(readFileSync('/proc/stat', 'utf8'));

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second (USER_HZ, `getconf CLK_TCK`): 100 on every usual Linux. */
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
      ticksPerSecond = Number.isInteger(value) && value > 0 ? value : 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

export const ticksToMicros = (ticks: number) => (ticks * 1_000_000) / clockTicksPerSecond();
