// A real NATS JetStream cluster for tests: N nats-server processes (the machine's binary, Debian's
// 2.9) routed to each other on loopback, each with its own store directory and free ports, so a test
// can kill -9 a node, restart it on the same ports and store, and watch what the code above copes
// with. The machine's shared server on 4222 is never touched.
//
// Nothing may outlive the test process: a process exit hook kills every node, and a small watchdog
// shell (reading our pids on a pipe) kills them when the test process dies without running hooks
// (SIGKILL, a worker torn down on timeout), since the nodes would otherwise keep their ports forever.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { waitFor } from './wait-for';

export const natsServerPath = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

export interface NatsClusterOptions {
  /** Number of servers; 3 gives a JetStream meta group (and R3 streams) that survive one loss. */
  readonly nodes?: number;
  /** The nats-server binary; NATS_SERVER_BIN or Debian's /usr/sbin/nats-server by default. */
  readonly binary?: string;
  /** How long start and restart wait for the cluster to be ready (generous: CI machines are busy). */
  readonly readyTimeoutMs?: number;
  /** Shows in the temporary directory's and servers' names, to tell clusters apart in `ps`. */
  readonly label?: string;
}

export interface NatsClusterNode {
  readonly index: number;
  /** The server_name, as JetStream reports it (stream leader, replicas). */
  readonly name: string;
  /** Client URL, `nats://127.0.0.1:port`. */
  readonly url: string;
  readonly clientPort: number;
  readonly clusterPort: number;
  /** HTTP monitoring port (`/healthz`, `/jsz`, `/connz`). */
  readonly monitorPort: number;
  readonly storeDir: string;
  /** Server log (stdout and stderr, appended across restarts). */
  readonly logFile: string;
  /** The running process's id; undefined while killed. */
  readonly pid: number | undefined;
}

export interface StreamPlacement {
  /** The stream's configured number of replicas. */
  readonly replicaCount: number;
  /** Index of the node leading the stream; undefined while it has no leader. */
  readonly leader: number | undefined;
  /** Every other replica, by node index, and whether it has caught up with the leader. */
  readonly replicas: readonly { readonly node: number; readonly current: boolean; readonly offline: boolean }[];
}

export interface NatsCluster {
  /** Client URL of every node, in node order. */
  readonly urls: readonly string[];
  /** The same, comma-separated, as NATS_URL takes them. */
  readonly url: string;
  readonly nodes: readonly NatsClusterNode[];
  /** Node index of a server_name (as JetStream reports leaders and replicas). */
  nodeIndexOf(serverName: string): number;
  /** Signals a node and resolves once its process has exited. */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>;
  /**
   * Starts a killed node again on the same ports and store; resolves once the cluster is ready:
   * every node healthy (`healthy`, the default: each stream and consumer caught up, which takes
   * long on a busy machine with many of them), or every node agreeing on a meta leader
   * (`leader-known`: serving clients, its replicas still catching up).
   */
  restart(index: number, options?: { readonly until?: 'healthy' | 'leader-known' }): Promise<void>;
  /** Resolves when every running node is healthy and JetStream has a meta leader. */
  waitUntilReady(timeoutMs?: number): Promise<void>;
  /** Where a stream is placed now, from JetStream's stream info. */
  streamPlacement(stream: string): Promise<StreamPlacement>;
  /** Resolves when the stream has a leader and every replica of it is online and current. */
  waitForStreamReplicas(stream: string, timeoutMs?: number): Promise<StreamPlacement>;
  /** Names of the client connections a node holds now (from its `/connz`). */
  connectionNames(index: number): Promise<string[]>;
  /** Kills every node and removes the store directories. Safe to call twice. */
  stop(): Promise<void>;
}

interface NodeState {
  readonly index: number;
  readonly name: string;
  readonly clientPort: number;
  readonly clusterPort: number;
  readonly monitorPort: number;
  readonly storeDir: string;
  readonly configFile: string;
  readonly logFile: string;
  process: ChildProcess | undefined;
  exited: Promise<void> | undefined;
}

/** Clusters of this process still running, for the exit hook. */
const liveClusters = new Set<{ killNow(): void }>();
const onProcessExit = (): void => {
  for (const cluster of liveClusters) cluster.killNow();
};

export async function startNatsCluster(options: NatsClusterOptions = {}): Promise<NatsCluster> {
  const size = options.nodes ?? 3;
  const binary = options.binary ?? natsServerPath;
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  if (!Number.isInteger(size) || size < 1) throw new Error(`invalid node count ${size}`);
  if (!existsSync(binary)) {
    throw new Error(`nats-server not found at ${binary}: apt-get install nats-server (or set NATS_SERVER_BIN)`);
  }
  const label = (options.label ?? 'cluster').replace(/[^a-z0-9-]/gi, '-');
  const id = randomBytes(3).toString('hex');
  const clusterName = `consentry-${label}-${id}`;
  const ports = await reservePorts(size * 3);
  const root = mkdtempSync(join(tmpdir(), `consentry-nats-${label}-`));
  const nodes: NodeState[] = Array.from({ length: size }, (_, index) => {
    const storeDir = join(root, `n${index}`);
    mkdirSync(storeDir);
    return {
      index,
      name: `${clusterName}-n${index}`,
      clientPort: ports[index * 3]!,
      clusterPort: ports[index * 3 + 1]!,
      monitorPort: ports[index * 3 + 2]!,
      storeDir,
      configFile: join(root, `n${index}.conf`),
      logFile: join(root, `n${index}.log`),
      process: undefined,
      exited: undefined,
    };
  });
  const routes = nodes.map((node) => `nats-route://127.0.0.1:${node.clusterPort}`);
  for (const node of nodes) writeFileSync(node.configFile, configOf(node, clusterName, size > 1 ? routes : []));

  const watchdog = startWatchdog(root);
  let stopped = false;
  let admin: NatsConnection | undefined;

  const killNow = (): void => {
    for (const node of nodes) {
      try {
        node.process?.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  const registration = { killNow };
  if (liveClusters.size === 0) process.on('exit', onProcessExit);
  liveClusters.add(registration);

  function launch(node: NodeState): void {
    const log = openSync(node.logFile, 'a');
    const child = spawn(binary, ['-c', node.configFile], { stdio: ['ignore', log, log] });
    closeSync(log);
    node.process = child;
    node.exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    void node.exited.then(() => {
      if (node.process === child) node.process = undefined;
    });
    if (child.pid !== undefined) watchdog.track(child.pid);
    // The test decides when the cluster ends; a forgotten stop() must not hold the test process open.
    child.unref();
  }

  const logTail = (node: NodeState): string => {
    try {
      return readFileSync(node.logFile, 'utf8').split('\n').slice(-15).join('\n');
    } catch {
      return '(no log)';
    }
  };

  async function monitor<T>(node: NodeState, path: string): Promise<{ status: number; body: T }> {
    const response = await fetch(`http://127.0.0.1:${node.monitorPort}${path}`, {
      signal: AbortSignal.timeout(2_000),
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  /** The meta leader this node knows of, once it is healthy (unless only the leader counts); undefined before. */
  async function metaLeaderSeenBy(node: NodeState, healthy = true): Promise<string | undefined> {
    if (healthy) {
      const health = await monitor<{ status?: string }>(node, '/healthz');
      if (health.status !== 200) return undefined;
    }
    if (size === 1) return node.name;
    const jsz = await monitor<{ meta_cluster?: { leader?: string } }>(node, '/jsz');
    return jsz.body.meta_cluster?.leader || undefined;
  }

  async function waitUntilReady(timeoutMs = readyTimeoutMs, healthy = true): Promise<void> {
    try {
      await waitFor(
        async () => {
          const running = nodes.filter((node) => node.process !== undefined);
          if (running.length === 0) throw new Error('no node is running');
          // Every node healthy and agreeing on a leader that runs: after the leader was killed, the
          // others keep naming it until they have elected another.
          const leaders = new Set(await Promise.all(running.map((node) => metaLeaderSeenBy(node, healthy))));
          const [leader] = leaders;
          return leaders.size === 1 && running.some((node) => node.name === leader);
        },
        { timeoutMs, intervalMs: 100, message: `NATS cluster ${clusterName} to be ready` },
      );
    } catch (error) {
      const logs = nodes.map((node) => `--- ${node.name} (${node.logFile})\n${logTail(node)}`).join('\n');
      throw new Error(`${(error as Error).message}\n${logs}`, { cause: error });
    }
  }

  const urls = nodes.map((node) => `nats://127.0.0.1:${node.clientPort}`);

  async function adminConnection(): Promise<NatsConnection> {
    if (admin === undefined || admin.isClosed()) {
      admin = await connect({ servers: urls, name: 'nats-cluster-harness', maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    }
    return admin;
  }

  function nodeIndexOf(serverName: string): number {
    const index = nodes.findIndex((node) => node.name === serverName);
    if (index === -1) throw new Error(`no node of this cluster is called ${serverName}`);
    return index;
  }

  function nodeAt(index: number): NodeState {
    const node = nodes[index];
    if (node === undefined) throw new Error(`no node ${index} (the cluster has ${size})`);
    return node;
  }

  async function streamPlacement(stream: string): Promise<StreamPlacement> {
    const manager = await jetstreamManager(await adminConnection(), { timeout: 2_000 });
    const info = await manager.streams.info(stream);
    const cluster = info.cluster;
    return {
      replicaCount: info.config.num_replicas,
      leader: cluster?.leader ? nodeIndexOf(cluster.leader) : size === 1 ? 0 : undefined,
      replicas: (cluster?.replicas ?? []).map((replica) => ({
        node: nodeIndexOf(replica.name),
        current: replica.current,
        offline: replica.offline ?? false,
      })),
    };
  }

  const cluster: NatsCluster = {
    urls,
    url: urls.join(','),
    get nodes() {
      return nodes.map((node) => ({
        index: node.index,
        name: node.name,
        url: urls[node.index]!,
        clientPort: node.clientPort,
        clusterPort: node.clusterPort,
        monitorPort: node.monitorPort,
        storeDir: node.storeDir,
        logFile: node.logFile,
        pid: node.process?.pid,
      }));
    },
    nodeIndexOf,
    async kill(index, signal = 'SIGKILL') {
      const node = nodeAt(index);
      const child = node.process;
      if (child === undefined) throw new Error(`node ${index} is not running`);
      // Referenced while we wait, or a test process with nothing else to do would exit first.
      child.ref();
      child.kill(signal);
      await node.exited;
    },
    async restart(index, options = {}) {
      const node = nodeAt(index);
      if (stopped) throw new Error('the cluster is stopped');
      if (node.process !== undefined) throw new Error(`node ${index} is still running; kill it first`);
      launch(node);
      await waitUntilReady(readyTimeoutMs, (options.until ?? 'healthy') === 'healthy');
    },
    waitUntilReady,
    streamPlacement,
    async waitForStreamReplicas(stream, timeoutMs = readyTimeoutMs) {
      return waitFor(
        async () => {
          const placement = await streamPlacement(stream);
          const caughtUp = placement.replicas.every((replica) => replica.current && !replica.offline);
          const complete = placement.replicas.length === placement.replicaCount - 1;
          return placement.leader !== undefined && caughtUp && complete ? placement : undefined;
        },
        { timeoutMs, intervalMs: 100, message: `every replica of stream ${stream} to be current` },
      );
    },
    async connectionNames(index) {
      const { body } = await monitor<{ connections?: { name?: string }[] }>(nodeAt(index), '/connz?limit=1024');
      return (body.connections ?? []).map((connection) => connection.name ?? '');
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await admin?.close().catch(() => undefined);
      const running = nodes.filter((node) => node.process !== undefined);
      for (const node of running) {
        node.process?.ref();
        node.process?.kill('SIGKILL');
      }
      await Promise.all(running.map((node) => node.exited));
      rmSync(root, { recursive: true, force: true });
      watchdog.release();
      liveClusters.delete(registration);
      if (liveClusters.size === 0) process.off('exit', onProcessExit);
    },
  };

  try {
    for (const node of nodes) launch(node);
    await waitUntilReady();
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

function configOf(node: NodeState, clusterName: string, routes: readonly string[]): string {
  const lines = [
    `server_name: ${JSON.stringify(node.name)}`,
    `listen: "127.0.0.1:${node.clientPort}"`,
    `http: "127.0.0.1:${node.monitorPort}"`,
    'jetstream {',
    `  store_dir: ${JSON.stringify(node.storeDir)}`,
    '  max_memory_store: 268435456',
    '  max_file_store: 2147483648',
    '}',
  ];
  if (routes.length > 0) {
    lines.push(
      'cluster {',
      `  name: ${JSON.stringify(clusterName)}`,
      `  listen: "127.0.0.1:${node.clusterPort}"`,
      `  routes: [${routes.map((route) => JSON.stringify(route)).join(', ')}]`,
      '}',
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Free loopback ports, all held until every one is chosen so none is handed out twice. Another
 * process may still take one before the server binds it; the server then fails to start and says so
 * in its log, which the readiness error prints.
 */
async function reservePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
      servers.push(server);
    }
    return servers.map((server) => (server.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

/**
 * A shell that outlives nothing: it reads node pids from its stdin, and when stdin closes (we
 * released it, or this process died however it died) kills those that still run our config (so a
 * pid reused by another process is left alone) and removes the directory.
 */
function startWatchdog(root: string): { track(pid: number): void; release(): void } {
  const script = [
    'pids=""',
    'while read -r pid; do pids="$pids $pid"; done',
    'for pid in $pids; do',
    '  if grep -qaF -- "$1" "/proc/$pid/cmdline" 2>/dev/null; then kill -9 "$pid" 2>/dev/null; fi',
    'done',
    'rm -rf -- "$1"',
  ].join('\n');
  const child = spawn('/bin/sh', ['-c', script, 'nats-cluster-watchdog', root], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const stdin = child.stdin;
  stdin?.on('error', () => undefined);
  child.unref();
  (stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    track(pid) {
      stdin?.write(`${pid}\n`);
    },
    release() {
      stdin?.end();
    },
  };
}
