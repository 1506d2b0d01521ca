// Cross-site request forgery defence beside SameSite=Lax cookies: a request that changes data and
// carries an Origin header must come from the app itself. Browsers send Origin on every
// cross-origin POST/PUT/PATCH/DELETE, so a page elsewhere cannot act with a visitor's session.
//
// "The app itself" is PUBLIC_URL's origin, or the origin the request was sent to (its own scheme,
// Host and port): a same-origin request is never cross-site, whatever name the browser used to reach
// the server. `npm start` prints http://localhost:3000, and someone who opens http://127.0.0.1:3000
// or the machine's LAN address must still be able to sign in. A page of any other origin is refused.
// Behind a reverse proxy the scheme and host are the ones it forwarded (TRUSTED_PROXIES).
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors';

const mutatingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The origin a request was addressed to, from its scheme and Host (null when Host is unusable). */
function targetOriginOf(request: FastifyRequest): string | null {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return null;
  }
}

export function createOriginGuard(publicUrl: string) {
  const ownOrigin = new URL(publicUrl).origin;
  return async function refuseForeignOrigin(request: FastifyRequest): Promise<void> {
    if (!mutatingMethods.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin === undefined || origin === ownOrigin) return;
    if (origin !== 'null' && origin === targetOriginOf(request)) return;
    throw new ApiError(403, 'FOREIGN_ORIGIN', 'Requests that change data must come from this app');
  };
}
