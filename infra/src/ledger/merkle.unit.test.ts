import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical';
import { inclusionProof, leafHash, merkleRoot, nodeHash, verifyInclusion } from './merkle';

const leaves = (n: number) => Array.from({ length: n }, (_, i) => createHash('sha256').update(`event ${i}`).digest());

describe('leafHash and nodeHash', () => {
  it('are SHA-256 over 0x00 ‖ leaf and 0x01 ‖ left ‖ right (RFC 6962), as an offline checker computes them', () => {
    const [a, b] = leaves(2) as [Buffer, Buffer];
    const sha256 = (...parts: Buffer[]) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest();
    expect(leafHash(a)).toEqual(sha256(Buffer.from([0]), a));
    expect(nodeHash(a, b)).toEqual(sha256(Buffer.from([1]), a, b));
    expect(merkleRoot([a, b]).toString('hex')).toBe(sha256(Buffer.from([1]), sha256(Buffer.from([0]), a), sha256(Buffer.from([0]), b)).toString('hex'));
  });
});

describe('merkleRoot', () => {
  it('builds the RFC 6962 shape: split at the largest power of two below n', () => {
    const [a, b, c, d, e] = leaves(5) as [Buffer, Buffer, Buffer, Buffer, Buffer];
    expect(merkleRoot([a])).toEqual(leafHash(a));
    expect(merkleRoot([a, b, c])).toEqual(nodeHash(nodeHash(leafHash(a), leafHash(b)), leafHash(c)));
    expect(merkleRoot([a, b, c, d, e])).toEqual(
      nodeHash(nodeHash(nodeHash(leafHash(a), leafHash(b)), nodeHash(leafHash(c), leafHash(d))), leafHash(e)),
    );
  });

  it('changes when any leaf changes or two leaves swap', () => {
    const tree = leaves(9);
    const root = merkleRoot(tree);
    const changed = [...tree];
    changed[6] = createHash('sha256').update('other').digest();
    expect(merkleRoot(changed)).not.toEqual(root);
    const swapped = [...tree];
    [swapped[2], swapped[3]] = [swapped[3]!, swapped[2]!];
    expect(merkleRoot(swapped)).not.toEqual(root);
  });

  it('refuses an empty tree', () => {
    expect(() => merkleRoot([])).toThrow('at least one leaf');
  });
});

describe('inclusion proofs', () => {
  it('verify for every leaf of trees of 1 to 40 leaves', () => {
    for (let size = 1; size <= 40; size++) {
      const tree = leaves(size);
      const root = merkleRoot(tree);
      for (let index = 0; index < size; index++) {
        const path = inclusionProof(tree, index);
        expect(path.length).toBeLessThanOrEqual(Math.ceil(Math.log2(size)));
        expect(verifyInclusion(tree[index]!, index, size, path, root), `leaf ${index} of ${size}`).toBe(true);
      }
    }
  });

  it('fail for another leaf, index, size, path or root', () => {
    const tree = leaves(13);
    const root = merkleRoot(tree);
    const path = inclusionProof(tree, 5);
    expect(verifyInclusion(tree[6]!, 5, 13, path, root)).toBe(false);
    expect(verifyInclusion(tree[5]!, 4, 13, path, root)).toBe(false);
    expect(verifyInclusion(tree[5]!, 5, 6, path, root)).toBe(false);
    expect(verifyInclusion(tree[5]!, 5, 13, path.slice(1), root)).toBe(false);
    expect(verifyInclusion(tree[5]!, 5, 13, [...path].reverse(), root)).toBe(false);
    expect(verifyInclusion(tree[5]!, 5, 13, path, merkleRoot(tree.slice(1)))).toBe(false);
    expect(verifyInclusion(tree[5]!, 13, 13, path, root)).toBe(false);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth, drops undefined, and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'x' }], c: true }, u: undefined })).toBe(
      '{"a":{"c":true,"d":[3,{"y":"x","z":null}]},"b":1}',
    );
  });

  it('orders keys by UTF-16 code units and escapes strings as JSON does', () => {
    expect(canonicalJson({ é: 1, z: 2, Z: 3, '\u20ac': 4 })).toBe('{"Z":3,"z":2,"é":1,"€":4}');
    expect(canonicalJson('line\n"quoted"')).toBe('"line\\n\\"quoted\\""');
  });

  it('gives the same bytes for the same value built in another key order', () => {
    expect(canonicalJson({ x: 1, y: [1, 2], z: { b: 2, a: 1 } })).toBe(canonicalJson({ z: { a: 1, b: 2 }, y: [1, 2], x: 1 }));
  });

  it('sorts each object by its own keys when many objects share a first key', () => {
    // Key lists that agree on their first key (and length), then differ: each is sorted on its own.
    const objects = [
      { m: 1, z: 2, b: 3 },
      { m: 1, b: 2, z: 3 },
      { m: 1, z: 2, a: 3 },
      { m: 1, z: 2 },
      { m: 1, z: 2, b: 3, a: 4 },
      { m: 1, z: 2, b: 3 },
    ];
    for (let round = 0; round < 2; round++) {
      expect(objects.map((object) => canonicalJson(object))).toEqual([
        '{"b":3,"m":1,"z":2}',
        '{"b":2,"m":1,"z":3}',
        '{"a":3,"m":1,"z":2}',
        '{"m":1,"z":2}',
        '{"a":4,"b":3,"m":1,"z":2}',
        '{"b":3,"m":1,"z":2}',
      ]);
    }
    // More shapes than are remembered for one first key still come out sorted.
    for (let n = 0; n < 20; n++) expect(canonicalJson({ m: 0, [`k${19 - n}`]: n, a: 1 })).toBe(`{"a":1,"k${19 - n}":${n},"m":0}`);
  });

  it('refuses values without a JSON form', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow('no JSON form');
    expect(() => canonicalJson({ f: () => 1 })).toThrow('no JSON form');
  });
});

describe('canonicalJson shapes', () => {
  it('never confuses two key lists that join alike', () => {
    expect(canonicalJson({ 'a\u0000': 1, b: 2 })).toBe('{"a\\u0000":1,"b":2}');
    expect(canonicalJson({ a: 1, '\u0000b': 2 })).toBe('{"\\u0000b":2,"a":1}');
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
  });
});
