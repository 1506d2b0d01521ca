// Merkle trees over event digests, as Certificate Transparency builds them (RFC 6962 / RFC 9162
// section 2.1): leaf hash = SHA-256(0x00 ‖ leaf), node hash = SHA-256(0x01 ‖ left ‖ right), and a
// tree of n leaves splits at the largest power of two below n. The prefixes keep a leaf from
// passing for a node. Inclusion proofs are checked with RFC 9162's algorithm, which
// docs/compliance.md restates for offline checking.
import { hash } from 'node:crypto';

const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

// One-shot hashing (crypto.hash) of the joined bytes: the sealer takes two of these per event, and
// a Hash object per digest cost more than twice as much.
export const leafHash = (leaf: Buffer): Buffer => hash('sha256', Buffer.concat([LEAF, leaf]), 'buffer');
export const nodeHash = (left: Buffer, right: Buffer): Buffer => hash('sha256', Buffer.concat([NODE, left, right]), 'buffer');

/** The largest power of two strictly below n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function subtreeRoot(leaves: readonly Buffer[], from: number, to: number): Buffer {
  const n = to - from;
  if (n === 1) return leafHash(leaves[from]!);
  const k = splitPoint(n);
  return nodeHash(subtreeRoot(leaves, from, from + k), subtreeRoot(leaves, from + k, to));
}

export function merkleRoot(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) throw new Error('A Merkle tree needs at least one leaf');
  return subtreeRoot(leaves, 0, leaves.length);
}

/** The audit path of leaf `index`: sibling hashes from the leaf up to the root. */
export function inclusionProof(leaves: readonly Buffer[], index: number): Buffer[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length) throw new RangeError(`Leaf ${index} is not in a tree of ${leaves.length}`);
  const path: Buffer[] = [];
  let from = 0;
  let to = leaves.length;
  // Walk down from the root, collecting the sibling subtree at each split; the path lists them bottom-up.
  while (to - from > 1) {
    const k = splitPoint(to - from);
    if (index < from + k) {
      path.push(subtreeRoot(leaves, from + k, to));
      to = from + k;
    } else {
      path.push(subtreeRoot(leaves, from, from + k));
      from += k;
    }
  }
  return path.reverse();
}

/** RFC 9162 section 2.1.3.2: does `leaf` sit at `index` of a tree of `size` leaves with this root? */
export function verifyInclusion(leaf: Buffer, index: number, size: number, path: readonly Buffer[], root: Buffer): boolean {
  if (!Number.isInteger(index) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let hash = leafHash(leaf);
  for (const sibling of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      hash = nodeHash(sibling, hash);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      hash = nodeHash(hash, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && hash.equals(root);
}
