import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runHttpLoad, serialiseRequest } from './http-load';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A loopback server that records each body and answers by its `answer` field. */
async function startServer(received: string[]): Promise<number> {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push(body);
      const { answer } = JSON.parse(body) as { answer: string };
      if (answer === 'drop') {
        request.socket.destroy();
        return;
      }
      const status = answer === 'refuse' ? 400 : 201;
      // Bodies of different sizes, some split over several writes.
      response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body) + 2) });
      response.write('[');
      setImmediate(() => response.end(`${body}]`));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server!.address() as AddressInfo).port;
}

const post = (body: object) =>
  serialiseRequest({ method: 'POST', host: 'localhost', path: '/collect', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) });

describe('runHttpLoad', () => {
  it('sends every request once and counts each answer by its status', async () => {
    const received: string[] = [];
    const port = await startServer(received);
    const bodies = Array.from({ length: 600 }, (_, index) => ({ index, answer: index % 10 === 0 ? 'refuse' : 'store', pad: 'x'.repeat(index) }));
    const result = await runHttpLoad({ host: '127.0.0.1', port, connections: 7, requests: bodies.map(post) });
    expect(result).toMatchObject({ ok: 540, non2xx: 60, errors: 0 });
    expect(received.map((body) => (JSON.parse(body) as { index: number }).index).sort((a, b) => a - b)).toEqual(bodies.map((b) => b.index));
    expect(result.p50).toBeGreaterThan(0);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    expect(result.perSecond).toBeCloseTo(540 / result.durationSeconds);
  });

  it('counts a request whose connection dies as an error and carries on with the rest', async () => {
    const received: string[] = [];
    const port = await startServer(received);
    const bodies = Array.from({ length: 50 }, (_, index) => ({ index, answer: index === 20 ? 'drop' : 'store' }));
    const result = await runHttpLoad({ host: '127.0.0.1', port, connections: 3, requests: bodies.map(post) });
    expect(result).toMatchObject({ ok: 49, non2xx: 0, errors: 1 });
    expect(received).toHaveLength(50);
  });

  it('sends requests made on demand until the duration passed, and answers every one it sent', async () => {
    const received: string[] = [];
    const port = await startServer(received);
    const result = await runHttpLoad({
      host: '127.0.0.1',
      port,
      connections: 4,
      requests: (index) => post({ index, answer: index % 5 === 0 ? 'refuse' : 'store' }),
      durationMs: 300,
    });
    const indexes = received.map((body) => (JSON.parse(body) as { index: number }).index).sort((a, b) => a - b);
    expect(indexes).toEqual(indexes.map((_, position) => position));
    expect(result.ok + result.non2xx).toBe(received.length);
    expect(result.non2xx).toBe(indexes.filter((index) => index % 5 === 0).length);
    expect(result.errors).toBe(0);
  });

  it('needs a duration for requests made on demand', () => {
    expect(() => runHttpLoad({ host: '127.0.0.1', port: 1, connections: 1, requests: () => post({}) })).toThrow('requests made on demand need durationMs');
  });

  it('refuses an answer it cannot read', async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('chunked, no length');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await expect(runHttpLoad({ host: '127.0.0.1', port, connections: 1, requests: [post({ answer: 'store' })] })).rejects.toThrow(
      'an answer without Content-Length: HTTP/1.1 200 OK',
    );
  });

  it('counts every request as an error when nothing listens', async () => {
    const port = await startServer([]);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const result = await runHttpLoad({ host: '127.0.0.1', port, connections: 2, requests: [post({ answer: 'store' }), post({ answer: 'store' })] });
    expect(result).toMatchObject({ ok: 0, non2xx: 0, errors: 2 });
  });
});
