// Fetching an owner's web page without becoming a way into private networks (SSRF): the host is
// resolved here, every address must pass the address policy (infra/src/net/address-policy.ts), and
// the connection is pinned to the checked address (so DNS cannot answer differently a moment later).
// Redirects are followed by hand and each hop is checked again. A timeout and a size cap bound the
// work. `allowHosts` exempts hosts for tests.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isBlockedAddress, systemLookup, type HostLookup } from '@consentry/infra';

export interface SafeFetchOptions {
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  readonly maxRedirects?: number;
  /** Hostnames or IP literals that may be fetched even if they resolve to blocked addresses. */
  readonly allowHosts?: readonly string[];
  readonly lookup?: HostLookup;
}

export interface FetchedPage {
  readonly url: string;
  readonly status: number;
  readonly body: string;
}

/**
 * Why a target was not fetched. `address` and `unresolvable` hold for every URL of the host (trying
 * another scheme is pointless); the others may not.
 */
export type RefusalKind = 'address' | 'unresolvable' | 'scheme' | 'redirects' | 'timeout';

export class RefusedTargetError extends Error {
  readonly code = 'TARGET_REFUSED';
  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message);
    this.name = 'RefusedTargetError';
  }
}


async function resolveTarget(url: URL, options: SafeFetchOptions): Promise<{ address: string; family: number }> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const allowed = options.allowHosts?.includes(hostname) ?? false;
  const literal = isIP(hostname);
  const addresses = literal ? [{ address: hostname, family: literal }] : await (options.lookup ?? systemLookup)(hostname).catch(() => []);
  if (addresses.length === 0) throw new RefusedTargetError('unresolvable', `${hostname} could not be resolved`);
  if (!allowed && addresses.some((entry) => isBlockedAddress(entry.address))) {
    throw new RefusedTargetError('address', `${hostname} resolves to a private or reserved address; only public websites can be verified`);
  }
  return addresses[0]!;
}

/** GET `url` safely; follows up to `maxRedirects` redirects, checking each hop. */
export async function safeFetch(url: string, options: SafeFetchOptions = {}): Promise<FetchedPage> {
  const maxRedirects = options.maxRedirects ?? 3;
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') {
      throw new RefusedTargetError('scheme', `Only http and https addresses can be fetched (got ${current.protocol})`);
    }
    const target = await resolveTarget(current, options);
    const page = await fetchOnce(current, target, options);
    if (page.redirect === undefined) return { url: current.toString(), status: page.status, body: page.body };
    if (hop >= maxRedirects) throw new RefusedTargetError('redirects', `More than ${maxRedirects} redirects`);
    current = new URL(page.redirect, current);
  }
}

function fetchOnce(
  url: URL,
  target: { address: string; family: number },
  options: SafeFetchOptions,
): Promise<{ status: number; body: string; redirect?: string }> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'GET',
        headers: { 'user-agent': 'ConsentryVerifier/1.0 (+installation check)', accept: 'text/html,*/*;q=0.5' },
        // Pin the connection to the address that was checked. Node asks for all addresses when it
        // races address families (autoSelectFamily), for one otherwise.
        lookup: ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
          else callback(null, target.address, target.family);
        }) as unknown as NonNullable<http.RequestOptions['lookup']>,
        timeout: timeoutMs,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          resolve({ status, body: '', redirect: location });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            // Enough to find a snippet; the rest is not needed.
            chunks.push(chunk.subarray(0, Math.max(0, chunk.length - (size - maxBytes))));
            response.destroy();
            resolve({ status, body: Buffer.concat(chunks).toString('utf8') });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    const deadline = setTimeout(() => request.destroy(new RefusedTargetError('timeout', `No answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('timeout', () => request.destroy(new RefusedTargetError('timeout', `No answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.on('close', () => clearTimeout(deadline));
    request.end();
  });
}
