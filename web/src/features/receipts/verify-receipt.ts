// Checks a consent receipt in the browser, as services/server/scripts/verify-receipt.mjs does
// offline (docs/compliance.md, "Checking a receipt offline"), with the Web Crypto API: the summary is
// the stored event's, the event's digest is a leaf of the seal's Merkle tree (RFC 9162 inclusion
// proof), the seal's hash matches its fields, and its Ed25519 signature verifies with the published
// key. The server is not trusted to say so: the page computes it.
import type { ApiSchemas } from '../../lib/api-types';

export type ConsentReceipt = ApiSchemas['ConsentReceipt'];

export type ReceiptVerification =
  | { readonly status: 'valid' | 'valid-erased'; readonly sealSequence: number; readonly keyId: string; readonly sealedAt: string }
  | { readonly status: 'pending' }
  | { readonly status: 'invalid'; readonly problem: string };

const encoder = new TextEncoder();

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array<ArrayBuffer>> {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', joined));
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new Error('not hexadecimal');
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
const toBase64Url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Canonical JSON: keys sorted by UTF-16 code units at every depth, no whitespace, no undefined. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

/** RFC 9162 section 2.1.3.2, with leaf = SHA-256(0x00 ‖ digest) and node = SHA-256(0x01 ‖ left ‖ right). */
async function rootFromProof(leafDigest: Uint8Array, index: number, size: number, path: readonly Uint8Array[]): Promise<Uint8Array | null> {
  if (index < 0 || index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let hash = await sha256(Uint8Array.of(0), leafDigest);
  for (const sibling of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      hash = await sha256(Uint8Array.of(1), sibling, hash);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      hash = await sha256(Uint8Array.of(1), hash, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? hash : null;
}

function spkiOfPem(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  return fromBase64(body);
}

/** The receipt checked against the seal key's PEM (GET /.well-known/consentry/seal-key). */
export async function verifyReceipt(receipt: ConsentReceipt, publicKeyPem: string): Promise<ReceiptVerification> {
  const invalid = (problem: string): ReceiptVerification => ({ status: 'invalid', problem });
  try {
    const { event, proof } = receipt;
    if (!proof) return { status: 'pending' };
    const data = (event.data ?? {}) as Record<string, unknown>;
    const choice = event.type === 'ConsentGiven' ? 'accepted' : event.type === 'ConsentDeclined' ? 'declined' : null;
    if (receipt.consentReceiptId !== event.eventId) return invalid('the receipt id is not the event id');
    if (receipt.consent.choice !== choice) return invalid(`the receipt says "${receipt.consent.choice}" but the event is ${event.type}`);
    if (receipt.consent.consentTimestamp !== data.receivedAt) return invalid('the consent time is not the event’s');
    if (receipt.subject.visitorId !== data.visitorId) return invalid('the visitor is not the event’s');
    if (receipt.notice.policyVersion !== data.policyVersion) return invalid('the policy version is not the event’s');
    if (receipt.consent.source !== data.source) return invalid('the collection method is not the event’s');

    const digest = toHex(await sha256(encoder.encode(canonicalJson(event))));
    const erased = receipt.proofStatus === 'personal-data-erased-after-sealing';
    if (digest !== proof.leafDigest && !erased) return invalid('the event does not match the sealed digest (the event was changed)');
    const root = await rootFromProof(fromHex(proof.leafDigest), proof.leafIndex, proof.treeSize, proof.path.map(fromHex));
    const seal = proof.seal;
    if (!root || toHex(root) !== seal.merkleRoot) return invalid('the inclusion proof does not lead to the seal’s Merkle root');
    if (proof.treeSize !== seal.eventCount) return invalid('the proof’s tree size is not the seal’s event count');
    const { sequence, after, last, eventCount, merkleRoot, previousSealHash, sealedAt, keyId } = seal;
    const sealHash = toHex(await sha256(encoder.encode(canonicalJson({ sequence, after, last, eventCount, merkleRoot, previousSealHash, sealedAt, keyId }))));
    if (sealHash !== seal.sealHash) return invalid('the seal’s hash does not match its fields (the seal was changed)');

    const spki = spkiOfPem(publicKeyPem);
    const keyIdOfKey = toBase64Url(await sha256(spki));
    if (keyIdOfKey !== keyId) return invalid(`the seal was signed by key ${keyId}, not by the published key (${keyIdOfKey})`);
    const key = await crypto.subtle.importKey('spki', spki, { name: 'Ed25519' }, false, ['verify']);
    const signed = await crypto.subtle.verify({ name: 'Ed25519' }, key, fromBase64(seal.signature), fromHex(seal.sealHash));
    if (!signed) return invalid('the seal’s signature does not verify');
    return { status: erased ? 'valid-erased' : 'valid', sealSequence: seal.sequence, keyId, sealedAt: seal.sealedAt };
  } catch (error) {
    return invalid(`the receipt could not be checked: ${error instanceof Error ? error.message : String(error)}`);
  }
}
