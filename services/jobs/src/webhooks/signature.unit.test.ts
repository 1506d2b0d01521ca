// Standard Webhooks signatures against the vector the specification's own JavaScript library tests
// with (standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts, "sign function
// works": key whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw, id msg_p5jXN8AQM9LWM0D4loKWxJek, timestamp
// 1614265330, payload '{"test": 2432232314}'), and the verification rules of the spec's
// "Verifying signatures" section.
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, isWebhookSecret, signWebhook, verifyWebhook, webhookHeaders, WebhookVerificationError } from './signature';

const vector = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const atVector = () => new Date(vector.timestamp * 1000);

describe('signing', () => {
  it('gives the signature the specification’s library gives for its test vector', () => {
    expect(signWebhook(vector.secret, vector.id, vector.timestamp, vector.payload)).toBe(vector.signature);
  });

  it('changes with any byte of the id, the timestamp or the body', () => {
    expect(signWebhook(vector.secret, `${vector.id}x`, vector.timestamp, vector.payload)).not.toBe(vector.signature);
    expect(signWebhook(vector.secret, vector.id, vector.timestamp + 1, vector.payload)).not.toBe(vector.signature);
    expect(signWebhook(vector.secret, vector.id, vector.timestamp, '{"test":2432232314}')).not.toBe(vector.signature);
  });

  it('refuses an id with a "." (it would move the boundary between the signed parts)', () => {
    expect(() => signWebhook(vector.secret, 'msg.1', vector.timestamp, '{}')).toThrow();
  });

  it('refuses a secret that is not whsec_ with 24 to 64 bytes', () => {
    expect(() => signWebhook('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', vector.id, vector.timestamp, '{}')).toThrow();
    expect(() => signWebhook('whsec_c2hvcnQ=', vector.id, vector.timestamp, '{}')).toThrow();
  });
});

describe('a generated secret', () => {
  it('is whsec_ with 32 random bytes, new each time, and signs what it verifies', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(isWebhookSecret(secret)).toBe(true);
    expect(generateWebhookSecret()).not.toBe(secret);
    const headers = webhookHeaders(secret, 'msg_1', '{"a":1}');
    expect(verifyWebhook(secret, headers, '{"a":1}').id).toBe('msg_1');
  });
});

describe('verifying', () => {
  const headers = { 'webhook-id': vector.id, 'webhook-timestamp': String(vector.timestamp), 'webhook-signature': vector.signature };

  it('accepts the vector within the tolerance, with headers in any case', () => {
    expect(verifyWebhook(vector.secret, headers, vector.payload, { now: atVector })).toEqual({ id: vector.id, timestamp: vector.timestamp });
    const shouted = { 'Webhook-Id': vector.id, 'WEBHOOK-TIMESTAMP': String(vector.timestamp), 'Webhook-Signature': vector.signature };
    expect(verifyWebhook(vector.secret, shouted, vector.payload, { now: atVector }).id).toBe(vector.id);
    expect(verifyWebhook(vector.secret, new Headers(headers), vector.payload, { now: atVector }).id).toBe(vector.id);
  });

  it('finds the matching one among several signatures (secret rotation), skipping other versions', () => {
    const list = `v1a,hnO3f9T8Ytu9HwrXslvumlUpqtNVqkhqw v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= ${vector.signature}`;
    expect(verifyWebhook(vector.secret, { ...headers, 'webhook-signature': list }, vector.payload, { now: atVector }).id).toBe(vector.id);
  });

  it('refuses a changed body, a wrong or partial signature, and a missing header', () => {
    const refuse = (override: Record<string, string | undefined>, body = vector.payload) =>
      expect(() => verifyWebhook(vector.secret, { ...headers, ...override }, body, { now: atVector })).toThrow(WebhookVerificationError);
    refuse({}, '{"test":2432232314}');
    refuse({ 'webhook-signature': 'v1,dawfeoifkpqwoekfpqoekf' });
    refuse({ 'webhook-signature': vector.signature.slice(0, 8) });
    refuse({ 'webhook-signature': 'v1,' });
    refuse({ 'webhook-signature': vector.signature.replace('v1,', 'v2,') });
    refuse({ 'webhook-id': undefined });
    refuse({ 'webhook-timestamp': 'hello' });
    expect(() => verifyWebhook(generateWebhookSecret(), headers, vector.payload, { now: atVector })).toThrow('No matching signature');
  });

  it('refuses a timestamp older or newer than the tolerance (replays)', () => {
    const at = (seconds: number) => () => new Date((vector.timestamp + seconds) * 1000);
    expect(verifyWebhook(vector.secret, headers, vector.payload, { now: at(300) }).id).toBe(vector.id);
    expect(() => verifyWebhook(vector.secret, headers, vector.payload, { now: at(301) })).toThrow('too old');
    expect(() => verifyWebhook(vector.secret, headers, vector.payload, { now: at(-301) })).toThrow('in the future');
    expect(verifyWebhook(vector.secret, headers, vector.payload, { now: at(3600), toleranceSeconds: 3600 }).id).toBe(vector.id);
  });
});
