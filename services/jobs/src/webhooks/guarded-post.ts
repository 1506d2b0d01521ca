// POSTing to an address an owner typed in, without becoming a way into private networks (SSRF; the
// Standard Webhooks spec names webhooks as "especially vulnerable" to it). The same address rules as
// installation verification and the scanner (infra/src/net/address-policy.ts): the host
// is resolved here, every address must be public unless the host is on the installation's allow-list
// (VERIFY_ALLOWED_HOSTS), and the connection is pinned to the checked address so DNS cannot answer
// differently a moment later. Redirects are not followed (the spec: a 3xx is a failure; the owner
// should update the URL). The answer's body is read up to a small cap and dropped.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isBlockedAddress, systemLookup, type HostLookup } from '@consentry/infra';

export interface GuardedPostOptions {
  readonly timeoutMs: number;
  /** Hosts (lower-case names or IP literals) that may be reached even at private addresses. */
  readonly allowHosts?: readonly string[];
  readonly lookup?: HostLookup;
  /** Most of the answer's body that is read (it is only kept for its length). */
  readonly maxResponseBytes?: number;
  /** Gives up at once (the worker is stopping). */
  readonly signal?: AbortSignal;
}

export type PostResult =
  | { readonly kind: 'answered'; readonly status: number; readonly retryAfterMs: number | null }
  /** Never sent or never answered; `error` is safe to show the owner (no URL, no secret). */
  | { readonly kind: 'failed'; readonly error: string };

/** Delay asked for by a Retry-After header (seconds or an HTTP date), null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export async function guardedPost(url: string, body: string, headers: Record<string, string>, options: GuardedPostOptions): Promise<PostResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { kind: 'failed', error: 'The endpoint URL is not a valid URL' };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return { kind: 'failed', error: 'Only http and https endpoints can be called' };
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const literal = isIP(host);
  let addresses: readonly { address: string; family: number }[];
  try {
    addresses = literal ? [{ address: host, family: literal }] : await (options.lookup ?? systemLookup)(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return { kind: 'failed', error: 'The endpoint’s host name could not be resolved' };
  const allowed = options.allowHosts?.includes(host) ?? false;
  if (!allowed && addresses.some((entry) => isBlockedAddress(entry.address))) {
    return { kind: 'failed', error: 'Refused: the endpoint resolves to a private or reserved address' };
  }
  const pinned = addresses[0]!;
  const client = target.protocol === 'https:' ? https : http;
  const maxBytes = options.maxResponseBytes ?? 64 * 1024;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const settle = (result: PostResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (lookupOptions.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
          else callback(null, pinned.address, pinned.family);
        }) as unknown as NonNullable<http.RequestOptions['lookup']>,
        // No keep-alive pool: one connection per try, pinned to the address checked for it.
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            response.destroy();
            settle({ kind: 'answered', status, retryAfterMs });
          }
        });
        response.on('end', () => settle({ kind: 'answered', status, retryAfterMs }));
        response.on('error', () => settle({ kind: 'answered', status, retryAfterMs }));
      },
    );
    const deadline = setTimeout(() => {
      settle({ kind: 'failed', error: `No answer within ${options.timeoutMs} ms` });
      request.destroy();
    }, options.timeoutMs);
    const abort = (): void => {
      settle({ kind: 'failed', error: 'Stopped before an answer' });
      request.destroy();
    };
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener('abort', abort, { once: true });
    request.on('close', () => options.signal?.removeEventListener('abort', abort));
    request.on('error', (error: NodeJS.ErrnoException) => settle({ kind: 'failed', error: describeNetworkError(error) }));
    request.end(body);
  });
}

/** What went wrong on the wire, in words that name no address, URL or secret. */
function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'Connection reset before an answer';
    case 'ETIMEDOUT':
      return 'Connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'Host unreachable';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS certificate refused (${error.code})`;
    default:
      return error.code ? `Network error (${error.code})` : 'Network error';
  }
}
