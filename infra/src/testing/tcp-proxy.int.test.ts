// The TCP proxy other tests rely on to simulate outages: it must pass bytes both ways, cut every
// open connection, refuse new ones while cut, and carry traffic again once restored.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

let echo: Server;
let proxy: TcpProxy;
const serverSockets = new Set<Socket>();

beforeEach(async () => {
  echo = createServer((socket) => {
    serverSockets.add(socket);
    socket.once('close', () => serverSockets.delete(socket));
    socket.on('error', () => undefined);
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const address = echo.address();
  if (address === null || typeof address === 'string') throw new Error('echo server has no port');
  proxy = await startTcpProxy({ targetHost: '127.0.0.1', targetPort: address.port });
});

afterEach(async () => {
  await proxy.close();
  for (const socket of serverSockets) socket.destroy();
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

/** Connects through the proxy; resolves with the echoed text, or with the error that ended it. */
function roundTrip(text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: proxy.host, port: proxy.port });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(text));
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received === text) {
        socket.end();
        resolve(received);
      }
    });
    socket.on('error', (error) => resolve(`error: ${error.message}`));
    socket.on('close', () => resolve(received === text ? received : `closed after "${received}"`));
  });
}

describe('the tcp proxy', () => {
  it('passes bytes both ways', async () => {
    await expect(roundTrip('hello')).resolves.toBe('hello');
  });

  describe('when cut', () => {
    it('ends open connections and refuses new ones until restored', async () => {
      const open = connect({ host: proxy.host, port: proxy.port });
      const ended = new Promise<string>((resolve) => {
        open.on('error', (error) => resolve(error.message));
        open.on('close', () => resolve('closed'));
      });
      await new Promise<void>((resolve) => open.once('connect', () => resolve()));
      open.write('ping');
      await new Promise<void>((resolve) => open.once('data', () => resolve()));

      proxy.cut();
      await expect(ended).resolves.toBeTruthy();
      expect(proxy.isCut).toBe(true);
      await expect(roundTrip('refused')).resolves.not.toBe('refused');

      proxy.restore();
      await expect(roundTrip('again')).resolves.toBe('again');
    });
  });
});
