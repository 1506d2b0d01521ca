// Canonical JSON: the one byte form of a value that every digest and signature of the ledger is
// taken over. Object keys sorted by UTF-16 code units, no whitespace, numbers and strings as
// JSON.stringify writes them (the rules of RFC 8785 for the values the log holds). Standalone on
// purpose: docs/compliance.md repeats these few lines for anyone checking a receipt offline.
import { createHash } from 'node:crypto';

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
      const shape = shapeOf(Object.keys(record));
      let out = '{';
      let first = true;
      for (let i = 0; i < shape.keys.length; i++) {
        const entry = record[shape.keys[i]!];
        if (entry === undefined) continue;
        out += (first ? shape.prefixes[i]!.slice(1) : shape.prefixes[i]!) + canonicalJson(entry);
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form`);
  }
}

interface Shape {
  /** The keys in canonical order: the default sort compares UTF-16 code units, as RFC 8785 orders them. */
  readonly keys: readonly string[];
  /** `,"key":` for each key. */
  readonly prefixes: readonly string[];
}

// Events of one type share a handful of object shapes; sorting and quoting their keys once per shape
// rather than once per object makes sealing about twice as fast.
const shapes = new Map<string, Shape>();

function shapeOf(keys: string[]): Shape {
  // JSON of the key list: unambiguous whatever characters the keys hold.
  const id = JSON.stringify(keys);
  let shape = shapes.get(id);
  if (!shape) {
    const sorted = keys.sort();
    shape = { keys: sorted, prefixes: sorted.map((key) => `,${JSON.stringify(key)}:`) };
    if (shapes.size >= 10_000) shapes.clear();
    shapes.set(id, shape);
  }
  return shape;
}

export function sha256Hex(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}
