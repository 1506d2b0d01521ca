// A machine that vanishes, for tests of what happens when one does (its power or network gone) rather
// than when one of its processes is killed, whose connections its kernel closes at once. On this one
// machine: a network namespace, joined to ours by a veth pair, stands for the other machine, and a
// private PostgreSQL cluster listens on our end of the pair (the machine's own listens on loopback,
// which a namespace cannot reach). `vanish()` takes the namespace's end of the link down: its
// processes run on, nothing they send arrives and nothing sent to them is answered, as if the cable
// were pulled. `reappear()` plugs it back in.
//
// Needs root and iproute2's `ip` (CI runs as root on a machine that has both), and PostgreSQL's server
// binaries (Debian's /usr/lib/postgresql/N/bin, or POSTGRES_BIN). Nothing outlives the test process:
// a watchdog shell removes the namespace, stops the cluster and deletes its directory when we close
// the host or die however we die (as nats-cluster.ts does for its nodes).
import { randomInt } from 'node:crypto';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { waitFor } from './wait-for';

const run = promisify(execFile);

export interface VanishingHost {
  /** The private PostgreSQL, as both the vanishing host's processes and this process reach it. */
  readonly connectionString: string;
  /** Runs a TypeScript script there with `node --import tsx` and these variables added; its stdout and stderr are collected. */
  runScript(script: string, env: Record<string, string>): HostProcess;
  /** The host's link goes down: its processes keep running, cut off. */
  vanish(): Promise<void>;
  /** The link comes back up. */
  reappear(): Promise<void>;
  /** Kills what runs on the host, removes it, and stops the cluster. */
  close(): Promise<void>;
}

export interface HostProcess {
  readonly child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
}

/** /30 subnets in 10.64.0.0/10 (and so namespace names) to pick from at random. */
const hostSlots = 1 << 20;

export async function startVanishingHost(): Promise<VanishingHost> {
  const bin = postgresBinDir();
  const postgresUser = systemUser('postgres');
  // At random, so that test files running at once (each its own process) pick different ones; a
  // name already taken is met by `ip netns add` failing, and another is picked.
  let index = randomInt(hostSlots);
  let name = `cvh${index}`;
  const directory = mkdtempSync(join(tmpdir(), 'consentry-vanishing-host-'));
  chownSync(directory, postgresUser.uid, postgresUser.gid);
  const ip = (...args: string[]) => run('ip', args);
  for (let attempt = 1; ; attempt++) {
    try {
      await ip('netns', 'add', name);
      break;
    } catch (error) {
      if (attempt >= 5 || !/exists/i.test((error as { stderr?: string }).stderr ?? '')) {
        rmSync(directory, { recursive: true, force: true });
        throw new Error(`a vanishing host needs root and iproute2's ip: ${(error as Error).message}`, { cause: error });
      }
      index = randomInt(hostSlots);
      name = `cvh${index}`;
    }
  }
  // A /30 of 10.64.0.0/10 per host: ours is .1, the namespace's .2.
  const subnet = 0x0a400000 + index * 4;
  const ourAddress = ipv4(subnet + 1);
  const theirAddress = ipv4(subnet + 2);
  const ourLink = `${name}h`;
  const theirLink = `${name}n`;
  const watchdog = startWatchdog(name, directory);

  const inNamespace = (...args: string[]) => run('ip', ['netns', 'exec', name, ...args]);
  let postgres: ChildProcess | undefined;
  try {
    await ip('link', 'add', ourLink, 'type', 'veth', 'peer', 'name', theirLink);
    await ip('link', 'set', theirLink, 'netns', name);
    await ip('addr', 'add', `${ourAddress}/30`, 'dev', ourLink);
    await ip('link', 'set', ourLink, 'up');
    await inNamespace('ip', 'addr', 'add', `${theirAddress}/30`, 'dev', theirLink);
    await inNamespace('ip', 'link', 'set', theirLink, 'up');
    await inNamespace('ip', 'link', 'set', 'lo', 'up');

    const asPostgres = { uid: postgresUser.uid, gid: postgresUser.gid };
    const data = join(directory, 'data');
    await new Promise<void>((resolve, reject) => {
      const initdb = spawn(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'root', '--no-sync', '--no-instructions'], {
        ...asPostgres,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let errors = '';
      initdb.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      initdb.once('error', reject);
      initdb.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`initdb failed (${code}): ${errors}`))));
    });
    // initdb trusts loopback only; the cluster is reachable from the pair's two addresses alone.
    appendFileSync(join(data, 'pg_hba.conf'), `host all all ${ourAddress}/30 trust\n`);
    const port = 5432;
    postgres = spawn(
      join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-k', directory, '-c', `listen_addresses=${ourAddress}`, '-c', 'fsync=off', '-c', 'max_connections=20', '-c', 'shared_buffers=16MB'],
      { ...asPostgres, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let serverLog = '';
    postgres.stderr?.on('data', (chunk: Buffer) => (serverLog = (serverLog + chunk.toString()).slice(-4000)));
    watchdog.track(postgres.pid!);
    const connectionString = `postgres://root@${ourAddress}:${port}/postgres`;
    const server = postgres;
    await waitFor(async () => {
      if (server.exitCode !== null) throw new Error(`the private PostgreSQL exited: ${serverLog}`);
      const client = new pg.Client({ connectionString });
      try {
        await client.connect();
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    }, { timeoutMs: 30_000, intervalMs: 100, message: 'the private PostgreSQL to accept connections' });

    const children = new Set<ChildProcess>();
    return {
      connectionString,
      runScript(script, env) {
        const child = spawn('ip', ['netns', 'exec', name, process.execPath, '--import', 'tsx', script], {
          env: { ...process.env, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        children.add(child);
        let output = '';
        child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        return { child, output: () => output };
      },
      async vanish() {
        await inNamespace('ip', 'link', 'set', theirLink, 'down');
      },
      async reappear() {
        await inNamespace('ip', 'link', 'set', theirLink, 'up');
      },
      async close() {
        for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await stopServer(server);
        await watchdog.release();
      },
    };
  } catch (error) {
    if (postgres) await stopServer(postgres);
    await watchdog.release();
    throw error;
  }
}

function postgresBinDir(): string {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((entry) => existsSync(join(root, entry, 'bin', 'postgres'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql: apt-get install postgresql (or set POSTGRES_BIN)');
  return join(root, newest, 'bin');
}

function systemUser(name: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) throw new Error(`no ${name} user on this machine (PostgreSQL refuses to run as root)`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function ipv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
}

/** Immediate shutdown (SIGQUIT): the cluster is thrown away, and its backends go with the postmaster. */
async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill('SIGQUIT');
  await exited;
}

/**
 * A shell that outlives nothing: it reads the cluster's pid on its stdin, and when stdin closes (we
 * released it, or this process died however it died) kills everything left in the namespace, removes
 * it (the veth pair goes with it), stops the cluster if it still runs from our directory and deletes
 * the directory. release() waits for it.
 */
function startWatchdog(namespace: string, directory: string): { track(pid: number): void; release(): Promise<void> } {
  const script = [
    'pids=""',
    'while read -r pid; do pids="$pids $pid"; done',
    'for pid in $(ip netns pids "$1" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done',
    'ip netns del "$1" 2>/dev/null',
    'for pid in $pids; do',
    '  if grep -qaF -- "$2" "/proc/$pid/cmdline" 2>/dev/null; then kill -QUIT "$pid" 2>/dev/null; fi',
    'done',
    'for pid in $pids; do while [ -d "/proc/$pid" ] && grep -qaF -- "$2" "/proc/$pid/cmdline" 2>/dev/null; do sleep 0.1; done; done',
    'rm -rf -- "$2"',
  ].join('\n');
  const child = spawn('/bin/sh', ['-c', script, 'vanishing-host-watchdog', namespace, directory], { stdio: ['pipe', 'ignore', 'ignore'] });
  const stdin = child.stdin;
  stdin?.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.unref();
  (stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    track(pid) {
      stdin?.write(`${pid}\n`);
    },
    async release() {
      stdin?.end();
      await exited;
    },
  };
}
