// Serves the built React app (web/dist) on the same origin as the api: hashed assets cached for
// good, every other GET outside /api answered with index.html so the app's router decides (and
// renders its own '404 Page Not Found'). Unknown /api paths stay JSON 404s.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export interface WebAppOptions {
  /** web/dist, built by `npm run build -w @consentry/web`. */
  readonly distDir: string;
}

const serveWebApp: FastifyPluginAsync<WebAppOptions> = async (app, { distDir }) => {
  const built = existsSync(path.join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders(response, filePath) {
        response.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ distDir }, 'the web app is not built: run npm run build -w @consentry/web');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (request.method !== 'GET' || pathname.startsWith('/api/') || pathname === '/api' || !built) {
      return reply.code(404).send({ error: { code: 'NOT_FOUND', message: `No route for ${request.method} ${pathname}` } });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
};

export const webAppPlugin = fp(serveWebApp, { name: 'consentry-web-app', fastify: '5.x' });
