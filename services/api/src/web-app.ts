// Serves the built React app (web/dist) on the same origin as the api: hashed assets cached for
// good, every other GET outside /api answered with index.html so the app's router decides (and
// renders its own '404 Page Not Found'). Unknown /api paths stay JSON 404s.
//
// Every answer carries the security headers (security-headers.ts). index.html is rendered per
// response with the Content-Security-Policy's nonce in `<meta property="csp-nonce">`, where the app
// and Vite's loader read it; so it is never cached with a validator (a 304 would pair an old page
// with a new nonce).
//
// Encapsulated on purpose (no fastify-plugin): helmet stays in this context and the api's, and the
// not-found handler set here still answers every path no other route matched.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { securityHeaders } from './security-headers';

export interface WebAppOptions {
  /** web/dist, built by `npm run build -w @consentry/web`. */
  readonly distDir: string;
  /** PUBLIC_URL (https turns on HSTS and upgrade-insecure-requests). */
  readonly publicUrl: string;
}

/** index.html with the response's nonce, for the app's run-time <style> elements. */
function renderIndexHtml(template: string, nonce: string): string {
  return template.replace('</head>', `  <meta property="csp-nonce" nonce="${nonce}" />\n  </head>`);
}

export const webAppPlugin: FastifyPluginAsync<WebAppOptions> = async (app, { distDir, publicUrl }) => {
  await app.register(fastifyHelmet, securityHeaders({ publicUrl, nonces: true }));

  const indexPath = path.join(distDir, 'index.html');
  const indexTemplate = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : null;
  if (indexTemplate !== null) {
    await app.register(fastifyStatic, {
      root: distDir,
      // One catch-all route that looks the file up per request (a missing file falls through to the
      // not-found handler below): a route per built file made every start register ~650 routes.
      wildcard: true,
      index: false,
      // index.html needs its nonce: it is only ever served by the handler below, as is every path
      // ending in '/' (a directory, which would otherwise be refused with a 403).
      allowedPath: (pathName) => pathName !== '/index.html' && !pathName.endsWith('/'),
      // The .br and .gz forms `npm run build` writes beside each asset (services/server/scripts/
      // precompress.ts), chosen by Accept-Encoding, with Vary; a file without them is sent as it is.
      preCompressed: true,
      setHeaders(response, filePath) {
        response.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ distDir }, 'the web app is not built: run npm run build -w @consentry/web');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (request.method !== 'GET' || pathname.startsWith('/api/') || pathname === '/api' || indexTemplate === null) {
      return reply.code(404).send({ error: { code: 'NOT_FOUND', message: `No route for ${request.method} ${pathname}` } });
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(renderIndexHtml(indexTemplate, reply.cspNonce.style));
  });
};
