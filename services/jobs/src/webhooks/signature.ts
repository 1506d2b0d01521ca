// Standard Webhooks signatures (spec/standard-webhooks.md of standard-webhooks/standard-webhooks,
// version 1.0.0, "Signature scheme" and "Verifying signatures"): the content signed is
// `{msg_id}.{timestamp}.{payload}`, HMAC-SHA256 with the base64-decoded part of a `whsec_` secret,
// sent as `v1,<base64>` in `webhook-signature` (a space-separated list, so a secret can be rotated
// without downtime), with `webhook-id` and `webhook-timestamp` (Unix seconds). Verification compares
// in constant time and refuses timestamps outside a tolerance (replay protection). Our outgoing
// webhooks and the enrichment provider contract (docs/enrichment-provider.md) both use it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const secretPrefix = 'whsec_';

/**
 * A `whsec_` secret: base64 of 24 to 64 random bytes (the spec asks for at least 24 bytes, 192 bits;
 * we generate 32).
 */
export const webhookSecretPattern = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** A fresh signing secret in the spec's serialisation: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `${secretPrefix}${randomBytes(32).toString('base64')}`;
}

/** The HMAC key of a `whsec_` secret; throws on anything else (an empty or short key signs nothing safely). */
export function webhookSecretKey(secret: string): Buffer {
  if (!webhookSecretPattern.test(secret)) throw new Error('A webhook secret is whsec_ followed by base64');
  const key = Buffer.from(secret.slice(secretPrefix.length), 'base64');
  if (key.length < 24 || key.length > 64) throw new Error('A webhook secret holds 24 to 64 bytes');
  return key;
}

/** True when `secret` is a usable `whsec_` secret (24–64 bytes). */
export function isWebhookSecret(secret: string): boolean {
  try {
    webhookSecretKey(secret);
    return true;
  } catch {
    return false;
  }
}

/**
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. The id must not contain a `.` (the spec:
 * ids and timestamps must not be able to shift the boundary between the signed parts).
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  if (id.length === 0 || id.includes('.')) throw new Error('A webhook id is non-empty and has no "."');
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) throw new Error('A webhook timestamp is whole Unix seconds');
  const mac = createHmac('sha256', webhookSecretKey(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers for a body, signed now (or at `timestampSeconds`). */
export function webhookHeaders(secret: string, id: string, body: string, timestampSeconds = Math.floor(Date.now() / 1000)): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, id, timestampSeconds, body),
  };
}

export interface VerifyOptions {
  /** How far the timestamp may be from now, either way; the spec's libraries use 5 minutes. */
  readonly toleranceSeconds?: number;
  readonly now?: () => Date;
}

type HeaderBag = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

function headerOf(headers: HeaderBag, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value.join(' ') : (value as string | undefined);
  }
  return undefined;
}

/**
 * Checks a signed message: the headers are present, the timestamp is within the tolerance, and one
 * of the `v1` signatures matches (others, e.g. `v1a`, are skipped). Returns the message id; throws
 * WebhookVerificationError saying what was wrong, never the secret or the expected signature.
 */
export function verifyWebhook(secret: string, headers: HeaderBag, body: string, options: VerifyOptions = {}): { id: string; timestamp: number } {
  const id = headerOf(headers, 'webhook-id');
  const timestampText = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  if (!id || !timestampText || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,12}$/.test(timestampText)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const timestamp = Number(timestampText);
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  if (now - timestamp > tolerance) throw new WebhookVerificationError('webhook-timestamp is too old');
  if (timestamp - now > tolerance) throw new WebhookVerificationError('webhook-timestamp is in the future');
  if (id.includes('.')) throw new WebhookVerificationError('webhook-id contains "."');
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body).slice(3), 'base64');
  for (const candidate of signatures.split(' ')) {
    const comma = candidate.indexOf(',');
    if (comma < 0 || candidate.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(candidate.slice(comma + 1), 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { id, timestamp };
  }
  throw new WebhookVerificationError('No matching signature');
}
