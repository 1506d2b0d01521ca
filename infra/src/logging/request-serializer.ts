// How a request appears in a log line (fastify logs `{ req: request }` as each arrives): fastify's own
// fields, with the client's address truncated as the ledger keeps it by default (http/ip-address.ts)
// and no client port. Visitors' requests (widget config, logo, cookie declaration) are logged at info
// level, and a log is not a place to keep what the ledger itself only keeps when told to.
import { ipForLog } from '../http/ip-address';

/** What pino is handed under `req`: a FastifyRequest, or anything else someone logs under that key. */
interface RequestLike {
  readonly method?: unknown;
  readonly url?: unknown;
  readonly host?: unknown;
  readonly ip?: unknown;
  readonly headers?: Readonly<Record<string, unknown>>;
}

export function serializeRequest(request: RequestLike): Record<string, unknown> {
  return {
    method: request.method,
    url: request.url,
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: ipForLog(typeof request.ip === 'string' ? request.ip : undefined),
  };
}
