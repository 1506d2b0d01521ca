// Canonical JSON: the one byte form of a value that every digest and signature of the ledger is
// taken over. Object keys sorted by UTF-16 code units, no whitespace, numbers and strings as
// JSON.stringify writes them (the rules of RFC 8785 for the values the log holds). Standalone on
// purpose: docs/compliance.md repeats these few lines for anyone checking a receipt offline.
import { hash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} has no JSON form`);
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      // The default sort compares UTF-16 code units, as RFC 8785 orders keys.
      const keys = Object.keys(record).sort();
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const entry = record[key];
        if (entry === undefined) continue;
        out += (out.length === 1 ? '' : ',') + quotedKey(key) + canonicalJson(entry);
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form`);
  }
}

// Events use a few dozen keys: each is quoted once, not once per object (with sorting each object's
// keys as it comes, ~25% faster than caching a sorted order per object shape, which had to build
// a cache key of every key list).
const quotedKeys = new Map<string, string>();

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = `${JSON.stringify(key)}:`;
    if (quotedKeys.size >= 10_000) quotedKeys.clear();
    quotedKeys.set(key, quoted);
  }
  return quoted;
}

export function sha256Hex(text: string | Buffer): string {
  // crypto.hash: one call, no Hash object (the sealer digests every event).
  return hash('sha256', text, 'hex');
}
