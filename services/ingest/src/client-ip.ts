// The client's address for a request, read once. Behind trusted proxies Fastify's request.ip walks
// X-Forwarded-For and parses every address in it on each read (proxy-addr and ipaddr.js: ~14 µs per
// read in the bench's profile), and both the rate limiter and the collection handlers need it. It is
// kept in a request decoration, a slot every request object is built with (a WeakMap keyed by the
// request cost ~0.6 µs per request, mostly in the garbage collector).
import type { FastifyInstance, FastifyRequest } from 'fastify';

const slot = 'ingestClientIp';

/** Gives the requests of `app` (and of the plugins it registers) the slot clientIp() fills. */
export function decorateClientIp(app: FastifyInstance): void {
  app.decorateRequest(slot, null);
}

export function clientIp(request: FastifyRequest): string {
  let ip = request.getDecorator<string | null>(slot);
  if (ip === null) {
    ip = request.ip;
    request.setDecorator(slot, ip);
  }
  return ip;
}
