#!/usr/bin/env node
// Checks a Consentry consent receipt offline, with nothing but the published seal key and
// node:crypto:   node verify-receipt.mjs receipt.json seal-key.pem
// (seal-key.pem: the `publicKey` of GET /.well-known/consentry/seal-key, saved as a file.)
// It checks that (1) the receipt's summary says what the stored event says, (2) the event's digest
// is a leaf of the seal's Merkle tree (RFC 9162 inclusion proof), (3) the seal's hash matches its
// fields, (4) the seal's Ed25519 signature verifies with the key, and (5) when the receipt is
// time-stamped, that every seal of its chain hashes to its contents, is signed by the key and chains
// to the one before, up to the seal the RFC 3161 token names. The token itself is checked with
// OpenSSL (docs/compliance.md): base64-decode `timestamp.token.token` to token.der, then
//   openssl ts -verify -token_in -in token.der -digest <timestamp.token.sealHash> -CAfile tsa-ca.pem
// Exit 0: valid; 1: not valid.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const sha256 = (...parts) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

// Canonical JSON: keys sorted by UTF-16 code units at every depth, no whitespace, no undefined.
function canonicalJson(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
}

// RFC 9162 section 2.1.3.2, with leaf = SHA-256(0x00 ‖ digest) and node = SHA-256(0x01 ‖ left ‖ right).
function rootFromProof(leafDigest, index, size, path) {
  if (index < 0 || index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let hash = sha256(Buffer.from([0]), leafDigest);
  for (const sibling of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      hash = sha256(Buffer.from([1]), sibling, hash);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      hash = sha256(Buffer.from([1]), hash, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? hash : null;
}

function check(receipt, publicKeyPem) {
  const { event, proof } = receipt;
  if (!proof) return 'the receipt has no proof yet (its consent was not sealed when it was issued); ask for it again in a few seconds';
  const data = event.data;
  const choice = event.type === 'ConsentGiven' ? 'accepted' : event.type === 'ConsentDeclined' ? 'declined' : null;
  if (receipt.consentReceiptId !== event.eventId) return 'the receipt id is not the event id';
  if (receipt.consent.choice !== choice) return `the receipt says "${receipt.consent.choice}" but the event is ${event.type}`;
  if (receipt.consent.consentTimestamp !== data.receivedAt) return 'the consent time is not the event’s';
  if (receipt.subject.visitorId !== data.visitorId) return 'the visitor is not the event’s';
  if (receipt.notice.policyVersion !== data.policyVersion) return 'the policy version is not the event’s';
  if (receipt.consent.source !== data.source) return 'the collection method is not the event’s';

  const digest = sha256(canonicalJson(event)).toString('hex');
  const erased = receipt.proofStatus === 'personal-data-erased-after-sealing';
  if (digest !== proof.leafDigest && !erased) return 'the event does not match the sealed digest (the event was changed)';
  const root = rootFromProof(Buffer.from(proof.leafDigest, 'hex'), proof.leafIndex, proof.treeSize, proof.path.map((hex) => Buffer.from(hex, 'hex')));
  const seal = proof.seal;
  if (!root || root.toString('hex') !== seal.merkleRoot) return 'the inclusion proof does not lead to the seal’s Merkle root';
  if (proof.treeSize !== seal.eventCount) return 'the proof’s tree size is not the seal’s event count';
  const { sequence, after, last, eventCount, merkleRoot, previousSealHash, sealedAt, keyId } = seal;
  const sealHash = sha256(canonicalJson({ sequence, after, last, eventCount, merkleRoot, previousSealHash, sealedAt, keyId })).toString('hex');
  if (sealHash !== seal.sealHash) return 'the seal’s hash does not match its fields (the seal was changed)';
  const publicKey = createPublicKey(publicKeyPem);
  const keyIdOfKey = createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
  if (keyIdOfKey !== keyId) return `the seal was signed by key ${keyId}, not by the key given (${keyIdOfKey})`;
  if (!verify(null, Buffer.from(seal.sealHash, 'hex'), publicKey, Buffer.from(seal.signature, 'base64'))) return 'the seal’s signature does not verify';
  if (receipt.timestamp) {
    let previous = seal;
    for (const next of receipt.timestamp.chain) {
      const { sequence, after, last, eventCount, merkleRoot, previousSealHash, sealedAt, keyId } = next;
      if (sequence !== previous.sequence + 1 || previousSealHash !== previous.sealHash) return `seal ${sequence} of the time-stamp chain does not follow seal ${previous.sequence}`;
      if (sha256(canonicalJson({ sequence, after, last, eventCount, merkleRoot, previousSealHash, sealedAt, keyId })).toString('hex') !== next.sealHash) return `seal ${sequence} of the time-stamp chain does not hash to its fields`;
      if (keyId !== keyIdOfKey || !verify(null, Buffer.from(next.sealHash, 'hex'), publicKey, Buffer.from(next.signature, 'base64'))) return `seal ${sequence} of the time-stamp chain is not signed by the given key`;
      previous = next;
    }
    const { token } = receipt.timestamp;
    if (token.sequence !== previous.sequence || token.sealHash !== previous.sealHash) return `the time-stamp token names seal ${token.sequence} (${token.sealHash}), not the end of the chain, seal ${previous.sequence}`;
    timestamped = `seal ${token.sequence} (and so the consent's seal ${seal.sequence}) is time-stamped ${token.genTime} by ${token.tsa}, token ${token.serialNumber}; check the token itself with openssl ts -verify`;
  }
  return erased ? 'erased' : null;
}

let timestamped = null;

const [receiptFile, keyFile] = process.argv.slice(2);
if (!receiptFile || !keyFile) {
  process.stderr.write('Usage: node verify-receipt.mjs receipt.json seal-key.pem\n');
  process.exit(2);
}
let problem;
try {
  problem = check(JSON.parse(readFileSync(receiptFile, 'utf8')), readFileSync(keyFile, 'utf8'));
} catch (error) {
  problem = `the receipt could not be read: ${error.message}`;
}
if (problem === null) {
  process.stdout.write('VALID: the consent is in the ledger as stated, under a seal signed by the given key.\n');
  if (timestamped) process.stdout.write(`TIME-STAMPED: ${timestamped}.\n`);
} else if (problem === 'erased') {
  process.stdout.write('VALID (personal data erased since): the sealed consent is in the ledger under a seal signed by the given key; its IP address, user agent, email and city were removed on request after sealing.\n');
} else {
  process.stdout.write(`NOT VALID: ${problem}.\n`);
  process.exit(1);
}
