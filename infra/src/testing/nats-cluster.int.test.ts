// The NATS cluster harness that fault tests rely on: its nodes form one JetStream cluster, a killed
// node comes back on the same port, and no nats-server outlives the test process — whether the
// test stops the cluster, exits without stopping it, or is killed -9.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { startNatsCluster, type NatsCluster } from './nats-cluster';
import { waitFor } from './wait-for';

const harness = join(dirname(fileURLToPath(import.meta.url)), 'nats-cluster.ts');

/** Whether a process runs (a zombie awaiting its reaper counts as gone). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function jetStreamAnswersAt(url: string): Promise<boolean> {
  const connection = await connect({ servers: url, reconnect: false });
  try {
    const manager = await jetstreamManager(connection, { timeout: 5_000 });
    return (await manager.getAccountInfo()).limits !== undefined;
  } finally {
    await connection.close();
  }
}

describe('a NATS cluster started by a test', () => {
  let cluster: NatsCluster;

  beforeAll(async () => {
    cluster = await startNatsCluster({ nodes: 3, label: 'harness' });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('runs one process per node, each answering JetStream on its own port', async () => {
    expect(cluster.urls).toHaveLength(3);
    expect(new Set(cluster.urls).size).toBe(3);
    expect(cluster.url).toBe(cluster.urls.join(','));
    for (const node of cluster.nodes) {
      expect(isRunning(node.pid!)).toBe(true);
      expect(cluster.nodeIndexOf(node.name)).toBe(node.index);
      await expect(jetStreamAnswersAt(node.url)).resolves.toBe(true);
    }
  });

  describe('when a node is killed and restarted', () => {
    it('is gone until restarted, then serves on the same port again with a new process', async () => {
      const before = cluster.nodes[1]!;
      await cluster.kill(1, 'SIGKILL');
      expect(cluster.nodes[1]!.pid).toBeUndefined();
      expect(isRunning(before.pid!)).toBe(false);
      await expect(jetStreamAnswersAt(before.url)).rejects.toThrow();
      // The other two still have a meta leader between them.
      await cluster.waitUntilReady();

      await cluster.restart(1);
      const after = cluster.nodes[1]!;
      expect(after.url).toBe(before.url);
      expect(after.pid).not.toBe(before.pid);
      await expect(jetStreamAnswersAt(after.url)).resolves.toBe(true);
    });
  });

  describe.each([
    ['exits without stopping it', 'exit'],
    ['is killed -9', 'SIGKILL'],
  ] as const)('when the test process %s', (_, ending) => {
    it('its nodes are killed and their directory removed', async () => {
      const script = [
        `import { startNatsCluster } from ${JSON.stringify(harness)};`,
        // One node is enough: what is under test is what happens to the processes.
        `const cluster = await startNatsCluster({ nodes: 1, label: 'harness-orphan' });`,
        `console.log(JSON.stringify({ pids: cluster.nodes.map((n) => n.pid), store: cluster.nodes[0].storeDir }));`,
        // Told when to exit, so the nodes are seen running first.
        `process.stdin.once('data', () => process.exit(1));`,
      ].join('\n');
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      let errors = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        const started = await waitFor(
          () => {
            const line = output.split('\n').find((text) => text.startsWith('{'));
            return line === undefined ? undefined : (JSON.parse(line) as { pids: number[]; store: string });
          },
          { timeoutMs: 30_000, intervalMs: 50, message: "the child's cluster to start" },
        ).catch((error: unknown) => {
          throw new Error(`the child's cluster did not start; its stderr:\n${errors}`, { cause: error });
        });
        expect(started.pids.filter(isRunning)).toHaveLength(1);
        if (ending === 'exit') child.stdin.write('exit\n');
        else child.kill(ending);
        await exited;

        await waitFor(() => started.pids.filter(isRunning).length === 0, {
          timeoutMs: 10_000,
          message: 'the nodes to be gone',
        });
        await waitFor(() => !existsSync(dirname(started.store)), { timeoutMs: 10_000, message: 'the directory to be gone' });
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    });
  });

  // Last: it ends the cluster the tests above share.
  describe('when stopped', () => {
    it('leaves no process and no directory behind, and a second stop does nothing', async () => {
      const pids = cluster.nodes.map((node) => node.pid!);
      const root = dirname(cluster.nodes[0]!.storeDir);
      await cluster.stop();
      await cluster.stop();
      expect(pids.filter(isRunning)).toEqual([]);
      expect(existsSync(root)).toBe(false);
    });
  });
});
