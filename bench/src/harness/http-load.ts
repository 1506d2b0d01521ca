// A lean HTTP/1.1 load generator for benchmarks on this 2-core machine, where the load generator
// shares the cores with the server it measures. Every request is serialised ahead of time (each may
// carry its own body, e.g. a unique event id), so sending one is a single socket write; a response
// is read by its status line and Content-Length and nothing else. A fixed number of requests, not a
// duration: every request sent gets its answer counted, so stored rows can be compared with 2xx
// answers exactly. autocannon, which builds each request anew, took ~57% of a core at 10,000
// requests/s in bench:ingest (pidstat); this costs ~22 µs of CPU per request (bench:ingest prints it).
// A run can also last a set time instead (bench:e2e): requests are then made on demand, each a copy of
// a serialised template with fresh UUIDs written in place (`createFreshUuidRequests`), and every
// request sent before the deadline is still answered and counted.
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface HttpLoadOptions {
  readonly host: string;
  readonly port: number;
  /** Keep-alive connections, each with one request in flight at a time. */
  readonly connections: number;
  /**
   * Complete requests (request line, headers, body), sent in this order, each once; or a function
   * that makes request number `index` when it is sent (then `durationMs` bounds the run).
   */
  readonly requests: readonly Buffer[] | ((index: number) => Buffer);
  /** No request is sent after this long; those in flight are still answered and counted. */
  readonly durationMs?: number;
}

export interface HttpLoadResult {
  readonly ok: number;
  readonly non2xx: number;
  /** Requests whose connection failed before the answer came (refused, reset, closed). */
  readonly errors: number;
  /** From the first request sent to the last answer. */
  readonly durationSeconds: number;
  /** 2xx answers per second. */
  readonly perSecond: number;
  /** Latencies of answered requests, ms. */
  readonly p50: number;
  readonly p99: number;
}

export interface RequestSpec {
  readonly method: string;
  /** The Host header, e.g. `127.0.0.1:3000`. */
  readonly host: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** One serialised HTTP/1.1 request, with Host, Content-Length and keep-alive. */
export function serialiseRequest({ method, host, path, headers = {}, body = '' }: RequestSpec): Buffer {
  const payload = Buffer.from(body);
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  head += `content-length: ${payload.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;

/**
 * Serialised requests made from `template` (see `serialiseRequest`), each a copy in which every UUID
 * of `uuids` (each found exactly once in the template) is replaced by a fresh random one: a new event
 * id and visitor per request for the cost of a copy and a few writes. UUIDs are 36 ASCII bytes, so
 * Content-Length stays right.
 */
export function createFreshUuidRequests(template: Buffer, uuids: readonly string[]): () => Buffer {
  const offsets = uuids.map((uuid) => {
    const offset = template.indexOf(uuid, 0, 'latin1');
    if (uuid.length !== 36 || offset < 0 || template.indexOf(uuid, offset + 1, 'latin1') >= 0) {
      throw new Error(`${uuid} must be a UUID found exactly once in the template`);
    }
    return offset;
  });
  return () => {
    const request = Buffer.from(template);
    for (const offset of offsets) request.write(randomUUID(), offset, 36, 'latin1');
    return request;
  };
}

/**
 * Sends every request of `options.requests` (or, made on demand, until `durationMs` passed) and
 * resolves when each sent has been answered or failed. Rejects on an answer it cannot read (no
 * Content-Length, or more than was asked for).
 */
export function runHttpLoad(options: HttpLoadOptions): Promise<HttpLoadResult> {
  const { requests, durationMs } = options;
  if (typeof requests === 'function' && durationMs === undefined) throw new Error('requests made on demand need durationMs');
  const total = typeof requests === 'function' ? Number.POSITIVE_INFINITY : requests.length;
  const requestAt = typeof requests === 'function' ? requests : (index: number) => requests[index]!;
  let latencies = new Float64Array(Math.max(1, Math.min(total, 1 << 16)));
  let answered = 0;
  let next = 0;
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let openConnections = 0;
  const started = performance.now();
  const deadline = durationMs === undefined ? Number.POSITIVE_INFINITY : started + durationMs;
  const exhausted = () => next >= total || performance.now() >= deadline;
  const recordLatency = (ms: number) => {
    if (answered === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[answered++] = ms;
  };

  return new Promise((resolve, reject) => {
    const sockets = new Set<Socket>();
    let failed = false;
    const fail = (error: Error) => {
      failed = true;
      for (const socket of sockets) socket.destroy();
      reject(error);
    };
    const finishIfDone = () => {
      if (openConnections > 0 || failed) return;
      const durationSeconds = (performance.now() - started) / 1000;
      const sorted = latencies.subarray(0, answered).sort();
      const at = (p: number) => (answered === 0 ? Number.NaN : sorted[Math.min(answered - 1, Math.ceil((p / 100) * answered) - 1)]!);
      resolve({ ok, non2xx, errors, durationSeconds, perSecond: ok / durationSeconds, p50: at(50), p99: at(99) });
    };

    const open = () => {
      if (exhausted() || failed) return;
      openConnections++;
      const socket: Socket = connect({ host: options.host, port: options.port, noDelay: true });
      sockets.add(socket);
      let pending: Buffer | null = null;
      let sentAt = 0;
      let inFlight = false;
      let connected = false;

      const send = () => {
        if (exhausted()) {
          socket.end();
          return;
        }
        inFlight = true;
        const request = requestAt(next++);
        sentAt = performance.now();
        socket.write(request);
      };

      socket.on('connect', () => {
        connected = true;
        send();
      });
      socket.on('data', (chunk: Buffer) => {
        const buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
        pending = null;
        // One request in flight per connection: at most one answer is complete at a time.
        const headerEnd = buffer.indexOf(HEADER_END);
        if (headerEnd < 0) {
          pending = buffer;
          return;
        }
        const head = buffer.toString('latin1', 0, headerEnd);
        const length = CONTENT_LENGTH.exec(head);
        if (!length) return fail(new Error(`an answer without Content-Length: ${head.split('\r\n')[0]}`));
        const total = headerEnd + HEADER_END.length + Number(length[1]);
        if (buffer.length < total) {
          pending = buffer;
          return;
        }
        if (buffer.length > total) return fail(new Error('an answer arrived that was not asked for'));
        const status = Number(head.slice(9, 12));
        recordLatency(performance.now() - sentAt);
        inFlight = false;
        if (status >= 200 && status < 300) ok++;
        else non2xx++;
        send();
      });
      socket.on('error', () => {
        // Reported through 'close'.
      });
      socket.on('close', () => {
        sockets.delete(socket);
        openConnections--;
        // A request whose connection died, or one that found no connection, fails; the rest go on.
        if (inFlight || (!connected && !exhausted())) {
          if (!connected) next++;
          errors++;
          inFlight = false;
          open();
        }
        finishIfDone();
      });
    };

    for (let index = 0; index < Math.min(options.connections, total); index++) open();
    finishIfDone();
  });
}
