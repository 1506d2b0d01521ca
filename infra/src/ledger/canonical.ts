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
      const { sorted, quoted } = shapeOf(record);
      let out = '{';
      for (let i = 0; i < sorted.length; i++) {
        const entry = record[sorted[i]!];
        if (entry === undefined) continue;
        out += (out.length === 1 ? '' : ',') + quoted[i]! + canonicalJson(entry);
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form`);
  }
}

// Events come in a few shapes (the same keys in the same order: the database writes an object's keys
// in one order), so each shape's sorted keys, each quoted, are remembered: a key list is compared key
// by key with the shapes that start with the same key, which costs less than sorting and quoting it
// (~5 against ~9 µs for a consent event's canonical JSON) and builds no cache key.
interface Shape {
  readonly keys: readonly string[];
  /** The keys in canonical order: the default sort compares UTF-16 code units, as RFC 8785 orders them. */
  readonly sorted: readonly string[];
  /** `"key":` for each of `sorted`. */
  readonly quoted: readonly string[];
}
const shapesByFirstKey = new Map<string, Shape[]>();
const maxShapesPerFirstKey = 8;
const emptyShape: Shape = { keys: [], sorted: [], quoted: [] };

function shapeOf(record: object): Shape {
  const keys = Object.keys(record);
  if (keys.length === 0) return emptyShape;
  const shapes = shapesByFirstKey.get(keys[0]!);
  if (shapes) {
    for (const shape of shapes) if (sameKeys(shape.keys, keys)) return shape;
  }
  const sorted = [...keys].sort();
  const shape: Shape = { keys, sorted, quoted: sorted.map((key) => `${JSON.stringify(key)}:`) };
  if (shapesByFirstKey.size >= 10_000) shapesByFirstKey.clear();
  if (!shapes) shapesByFirstKey.set(keys[0]!, [shape]);
  else if (shapes.length < maxShapesPerFirstKey) shapes.push(shape);
  return shape;
}

/** Equal key lists, given that their first keys are (the map found them under it). */
function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 1; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function sha256Hex(text: string | Buffer): string {
  // crypto.hash: one call, no Hash object (the sealer digests every event).
  return hash('sha256', text, 'hex');
}
