// The proxy every scanning context sends its traffic through, so the address guard sees every
// connection the browser opens: plain HTTP requests, HTTPS and WebSocket tunnels (CONNECT) and
// WebSocket upgrades, each redirect hop included (Playwright's request routing sees only the first
// URL of a redirect chain). The proxy resolves the host itself and connects to the address it
// checked, so DNS cannot answer differently between the check and the connection. It listens on
// loopback for one browser context and records the hosts it refused.
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { AddressGuard } from './address-guard';

export interface GuardProxy {
  /** http://127.0.0.1:PORT, for the context's `proxy.server`. */
  url: string;
  /** Hosts refused so far. */
  refused: Set<string>;
  close(): Promise<void>;
}

const idleTimeoutMs = 30_000;
// Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded.
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** host:port of a CONNECT target or Host header; IPv6 in brackets. */
function splitHostPort(target: string, defaultPort: number): { host: string; port: number } | null {
  const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(target);
  if (!match) return null;
  const port = match[3] ? Number(match[3]) : defaultPort;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host: (match[1] ?? match[2]!).toLowerCase(), port };
}

export async function startGuardProxy(guard: AddressGuard): Promise<GuardProxy> {
  const refused = new Set<string>();
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };

  /** The checked address to connect to, or null (recorded as refused). */
  const addressFor = async (host: string): Promise<string | null> => {
    const verdict = await guard.check(host);
    if (!verdict.allowed) {
      refused.add(host);
      return null;
    }
    return verdict.addresses[0]!;
  };

  const server = http.createServer((request, response) => {
    void (async () => {
      let target: URL;
      try {
        target = new URL(request.url ?? '');
      } catch {
        response.writeHead(400).end();
        return;
      }
      if (target.protocol !== 'http:') {
        response.writeHead(400).end();
        return;
      }
      const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      const address = await addressFor(host);
      // Refused or unreachable, the browser sees a failed connection (as without a proxy), not an
      // error page it would record as the page.
      if (address == null) {
        request.socket.destroy();
        return;
      }
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(request.headers)) if (!hopByHop.has(name) && value !== undefined) headers[name] = value;
      const upstream = http.request(
        {
          host: address,
          port: target.port === '' ? 80 : Number(target.port),
          method: request.method,
          path: `${target.pathname}${target.search}`,
          headers,
          setHost: false,
          timeout: idleTimeoutMs,
        },
        (reply) => {
          const replyHeaders: http.OutgoingHttpHeaders = {};
          for (const [name, value] of Object.entries(reply.headers)) if (!hopByHop.has(name) && value !== undefined) replyHeaders[name] = value;
          response.writeHead(reply.statusCode ?? 502, reply.statusMessage, replyHeaders);
          reply.pipe(response);
        },
      );
      upstream.on('timeout', () => upstream.destroy());
      response.on('close', () => upstream.destroy());
      upstream.on('error', () => request.socket.destroy());
      request.pipe(upstream);
    })();
  });

  // A tunnel to the checked address: HTTPS and WebSockets (Chromium tunnels ws:// too).
  server.on('connect', (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    void (async () => {
      const target = splitHostPort(request.url ?? '', 443);
      const address = target ? await addressFor(target.host) : null;
      if (!target || address == null) {
        client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        return;
      }
      const upstream = net.connect({ host: address, port: target.port });
      track(upstream);
      upstream.setTimeout(idleTimeoutMs, () => upstream.destroy());
      upstream.on('error', () => {
        if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
        client.destroy();
      });
      upstream.on('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      client.on('close', () => upstream.destroy());
    })();
  });

  // A plain ws:// upgrade sent to the proxy as an absolute-URI request.
  server.on('upgrade', (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    void (async () => {
      let target: URL | null = null;
      try {
        target = new URL(request.url ?? '');
      } catch {
        target = null;
      }
      const host = target?.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      const address = host ? await addressFor(host) : null;
      if (!target || address == null) {
        client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        return;
      }
      const upstream = net.connect({ host: address, port: target.port === '' ? 80 : Number(target.port) });
      track(upstream);
      upstream.on('error', () => client.destroy());
      upstream.on('connect', () => {
        const lines = [`${request.method} ${target.pathname}${target.search} HTTP/1.1`];
        for (let index = 0; index < request.rawHeaders.length; index += 2) {
          if (request.rawHeaders[index]!.toLowerCase() === 'proxy-connection') continue;
          lines.push(`${request.rawHeaders[index]}: ${request.rawHeaders[index + 1]}`);
        }
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      client.on('close', () => upstream.destroy());
    })();
  });

  server.on('connection', (socket) => track(socket));
  server.keepAliveTimeout = idleTimeoutMs;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
