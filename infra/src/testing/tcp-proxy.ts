// A loopback TCP proxy for tests that need a dependency (NATS, Postgres) to become unreachable for a
// while: the servers on these machines are shared, so a test must not stop them, but it can cut its
// own connections to them and watch how the code under test copes.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxyOptions {
  readonly targetHost: string;
  readonly targetPort: number;
  /** Interface to listen on; loopback unless a test needs otherwise. */
  readonly listenHost?: string;
}

export interface TcpProxy {
  readonly host: string;
  readonly port: number;
  /** Destroys every open connection (both sides) and refuses new ones until `restore()`. */
  cut(): void;
  restore(): void;
  readonly isCut: boolean;
  /** Connections accepted so far, including those refused while cut. */
  readonly connectionCount: number;
  close(): Promise<void>;
}

export async function startTcpProxy(options: TcpProxyOptions): Promise<TcpProxy> {
  const listenHost = options.listenHost ?? '127.0.0.1';
  const sockets = new Set<Socket>();
  let cut = false;
  let connectionCount = 0;

  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A peer vanishing is the point of this proxy; an unhandled 'error' would crash the test run.
    socket.on('error', () => socket.destroy());
  };

  const server: Server = createServer((client) => {
    connectionCount++;
    if (cut) {
      // Resetting (not a graceful FIN) looks like a refused/broken connection to the client.
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    const upstream = connect({ host: options.targetHost, port: options.targetPort });
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, listenHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('tcp proxy has no port');

  return {
    host: listenHost,
    port: address.port,
    cut() {
      cut = true;
      for (const socket of sockets) socket.resetAndDestroy();
      sockets.clear();
    },
    restore() {
      cut = false;
    },
    get isCut() {
      return cut;
    },
    get connectionCount() {
      return connectionCount;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
