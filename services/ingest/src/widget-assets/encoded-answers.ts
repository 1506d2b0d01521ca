// What the widget loads, sent compressed when the browser accepts it: each answer is held as its
// bytes and their Brotli and gzip forms, compressed once (at build for the scripts, at render for a
// config), chosen per request by Accept-Encoding, each form with its own strong ETag. See
// docs/architecture.md, "Compression and caching".
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Below this many bytes an answer is sent as it is: it fits in a packet or two either way. */
export const compressionThreshold = 1024;

export type ContentCoding = 'br' | 'gzip';

/** One answer's bytes, their compressed forms (none for small or incompressible ones) and its hash. */
export interface EncodedAnswer {
  readonly identity: Buffer;
  readonly br?: Buffer;
  readonly gzip?: Buffer;
  /** The content's hash: each form's ETag is made from it. */
  readonly hash: string;
}

const contentHash = (body: Buffer): string => createHash('sha256').update(body).digest('base64url').slice(0, 27);

/**
 * Brotli at quality 11 and gzip at level 9 (done once per distinct answer, so the most is worth it);
 * a form no smaller than the bytes is left out.
 */
function compressBoth(body: Buffer): { br?: Buffer; gzip?: Buffer } {
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
    },
  });
  const gzip = gzipSync(body, { level: 9 });
  return { ...(br.byteLength < body.byteLength ? { br } : {}), ...(gzip.byteLength < body.byteLength ? { gzip } : {}) };
}

/** `body` sent as it is, whatever the browser accepts (images, compressed already). */
export const plainAnswer = (body: Buffer): EncodedAnswer => ({ identity: body, hash: contentHash(body) });

/** `body` with its compressed forms when it is large enough for them to pay; `previous` is reused when the content is the same. */
export function encodeAnswer(body: Buffer, previous?: EncodedAnswer): EncodedAnswer {
  const hash = contentHash(body);
  if (previous?.hash === hash) return previous;
  if (body.byteLength < compressionThreshold) return { identity: body, hash };
  return { identity: body, hash, ...compressBoth(body) };
}

/** Only forms that are smaller, and that decompress to the exact bytes (a half-finished build's are not). */
function checkedForm(body: Buffer, form: Buffer | undefined, decompress: (form: Buffer) => Buffer): Buffer | undefined {
  if (!form || form.byteLength >= body.byteLength) return undefined;
  try {
    return decompress(form).equals(body) ? form : undefined;
  } catch {
    return undefined;
  }
}

const readIfThere = (filePath: string): Promise<Buffer | undefined> => readFile(filePath).catch(() => undefined);

/**
 * A built script and the .br and .gz forms the widget's build writes beside it (widget/scripts/build.ts).
 * Forms that are missing or do not match the script (built by an older build, or by hand) are made
 * here instead, once, and `onCompressed` is told.
 */
export async function readEncodedFile(filePath: string, onCompressed: () => void): Promise<EncodedAnswer> {
  const body = await readFile(filePath);
  if (body.byteLength < compressionThreshold) return plainAnswer(body);
  const [br, gzip] = await Promise.all([readIfThere(`${filePath}.br`), readIfThere(`${filePath}.gz`)]);
  const built = { br: checkedForm(body, br, brotliDecompressSync), gzip: checkedForm(body, gzip, gunzipSync) };
  if (built.br && built.gzip) return { identity: body, hash: contentHash(body), br: built.br, gzip: built.gzip };
  onCompressed();
  return encodeAnswer(body);
}

/**
 * The coding to send from those `answer` has, by the request's Accept-Encoding (RFC 9110 §12.5.3):
 * the highest q-value wins, Brotli (the smaller) on a tie; null sends the bytes as they are.
 */
export function negotiateCoding(acceptEncoding: string | string[] | undefined, answer: Pick<EncodedAnswer, 'br' | 'gzip'>): ContentCoding | null {
  if (acceptEncoding === undefined) return null;
  const weights = new Map<string, number>();
  for (const entry of String(acceptEncoding).split(',')) {
    const [name = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(weight) ? weight : 0);
  }
  let best: ContentCoding | null = null;
  let bestWeight = 0;
  for (const coding of ['br', 'gzip'] as const) {
    if (!answer[coding]) continue;
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/** Whether If-None-Match names `etag` (weak comparison, as RFC 9110 §13.1.2 has for this header). */
export function matchesIfNoneMatch(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return String(ifNoneMatch)
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * Sends `answer` in the form the request accepts, cacheable for anyone (widget assets are the same
 * for every visitor), with a strong ETag per form and a 304 when the browser has that form already.
 */
export function sendEncoded(request: FastifyRequest, reply: FastifyReply, answer: EncodedAnswer, contentType: string, cacheControl: string) {
  const coding = negotiateCoding(request.headers['accept-encoding'], answer);
  // Each form is its own representation, so each has its own strong validator.
  const etag = coding ? `"${answer.hash}-${coding}"` : `"${answer.hash}"`;
  reply
    .header('cache-control', cacheControl)
    .header('etag', etag)
    .header('access-control-allow-origin', '*')
    // Owners' performance tools (and our banner benchmark) may see how long these took.
    .header('timing-allow-origin', '*')
    .header('x-content-type-options', 'nosniff');
  // What is sent depends on Accept-Encoding only when there is a compressed form to choose.
  if (answer.br || answer.gzip) reply.header('vary', 'accept-encoding');
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  if (coding) reply.header('content-encoding', coding);
  return reply.type(contentType).send(coding ? answer[coding] : answer.identity);
}
