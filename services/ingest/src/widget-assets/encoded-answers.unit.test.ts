// Choosing the form of a widget asset to send (Accept-Encoding, RFC 9110 §12.5.3) and recognising the
// browser's copy (If-None-Match): what encoded-answers.ts decides before anything is sent.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressionThreshold, encodeAnswer, matchesIfNoneMatch, negotiateCoding } from './encoded-answers';

const both = { br: Buffer.from('b'), gzip: Buffer.from('g') };

describe('negotiateCoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['BR;Q=1, GZIP;q=0.9', 'br'],
    ['br;q=0, *', 'gzip'],
    ['*', 'br'],
    ['*;q=0', null],
    ['identity', null],
    ['deflate', null],
    ['', null],
    ['gzip;q=nonsense', null],
  ])('%j chooses %s', (header, chosen) => {
    expect(negotiateCoding(header, both)).toBe(chosen);
  });

  it('sends the bytes as they are without an Accept-Encoding, or without forms to choose', () => {
    expect(negotiateCoding(undefined, both)).toBeNull();
    expect(negotiateCoding('br, gzip', {})).toBeNull();
    expect(negotiateCoding('br, gzip', { gzip: both.gzip })).toBe('gzip');
  });
});

describe('matchesIfNoneMatch', () => {
  it('finds the tag in a list, weak or strong, or *', () => {
    expect(matchesIfNoneMatch('"abc-br"', '"abc-br"')).toBe(true);
    expect(matchesIfNoneMatch('"x", W/"abc-br"', '"abc-br"')).toBe(true);
    expect(matchesIfNoneMatch('*', '"abc-br"')).toBe(true);
    expect(matchesIfNoneMatch('"abc"', '"abc-br"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"abc"')).toBe(false);
  });
});

describe('encodeAnswer', () => {
  it('compresses from the threshold on, each form decoding to the bytes', () => {
    const body = Buffer.from(JSON.stringify({ texts: Array.from({ length: 80 }, (_, i) => `text number ${i}`) }));
    expect(body.byteLength).toBeGreaterThanOrEqual(compressionThreshold);
    const answer = encodeAnswer(body);
    expect(brotliDecompressSync(answer.br!).equals(body)).toBe(true);
    expect(gunzipSync(answer.gzip!).equals(body)).toBe(true);
  });

  it('leaves small answers as they are, and reuses the forms of the same content', () => {
    expect(encodeAnswer(Buffer.from('{"rule":"opt_in"}'))).not.toHaveProperty('br');
    const body = Buffer.from('x'.repeat(2000));
    const first = encodeAnswer(body);
    expect(encodeAnswer(Buffer.from(body), first)).toBe(first);
    expect(encodeAnswer(Buffer.from('y'.repeat(2000)), first)).not.toBe(first);
  });
});
