// Cross-site request forgery defence beside SameSite=Lax cookies: a request that changes data and
// carries an Origin header must come from the app's own origin (PUBLIC_URL). Browsers send Origin on
// every cross-origin POST/PUT/PATCH/DELETE, so a page elsewhere cannot act with a visitor's session.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors';

const mutatingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function createOriginGuard(publicUrl: string) {
  const ownOrigin = new URL(publicUrl).origin;
  return async function refuseForeignOrigin(request: FastifyRequest): Promise<void> {
    if (!mutatingMethods.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin === undefined || origin === ownOrigin) return;
    throw new ApiError(403, 'FOREIGN_ORIGIN', 'Requests that change data must come from this app');
  };
}
