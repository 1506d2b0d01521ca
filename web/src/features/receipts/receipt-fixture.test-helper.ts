// A consent receipt built the way the ledger builds one (an event among three under a seal: RFC 9162
// tree, Ed25519 signature), for the receipt tests.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { canonicalJson, type ConsentReceipt } from './verify-receipt';

const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leafHash = (digest: Buffer) => sha(Buffer.from([0]), digest);
const nodeHash = (left: Buffer, right: Buffer) => sha(Buffer.from([1]), left, right);

/** A receipt of one consent among three under a seal signed with a new key, and that key. */
export function buildReceipt() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const keyId = createHash('sha256').update(spki).digest('base64url');
  const event = {
    position: 7,
    transactionId: '812',
    eventId: '0b7c6f2e-1111-4222-8333-444455556666',
    streamId: 'consent-0b7c6f2e',
    streamVersion: null,
    type: 'ConsentGiven',
    schemaVersion: 3,
    data: { websiteId: 'w1', visitorId: 'v1', receivedAt: '2026-11-27T10:00:00.000Z', policyVersion: '1', source: 'banner', ipAddress: '203.0.113.0', purposes: { analytics: true } },
    metadata: {},
    recordedAt: '2026-11-27T10:00:00.123456Z',
  };
  const digests = [sha(Buffer.from('before')), createHash('sha256').update(canonicalJson(event)).digest(), sha(Buffer.from('after'))];
  const [a, b, c] = digests.map(leafHash) as [Buffer, Buffer, Buffer];
  const root = nodeHash(nodeHash(a, b), c);
  const header = {
    sequence: 4,
    after: { transactionId: '800', position: 1 },
    last: { transactionId: '812', position: 9 },
    eventCount: 3,
    merkleRoot: root.toString('hex'),
    previousSealHash: 'f'.repeat(64),
    sealedAt: '2026-11-27T10:00:05.000Z',
    keyId,
  };
  const sealHash = createHash('sha256').update(canonicalJson(header)).digest('hex');
  const signature = sign(null, Buffer.from(sealHash, 'hex'), privateKey).toString('base64');
  const receipt: ConsentReceipt = {
    version: 'consentry-receipt/1 (after Kantara Consent Receipt v1.1)',
    consentReceiptId: event.eventId,
    issuedAt: '2026-11-27T12:00:00.000Z',
    jurisdiction: 'EU (GDPR)',
    controller: { name: 'Trattoria Roma', contactEmail: 'owner@trattoria.example', website: 'https://trattoria.example', privacyPolicyUrl: null },
    subject: { visitorId: 'v1' },
    consent: {
      choice: 'accepted',
      consentTimestamp: event.data.receivedAt,
      visitorClockTimestamp: '2026-11-27T09:59:59.000Z',
      collectionMethod: 'The visitor chose on the cookie banner (widget.js) on the controller’s website.',
      source: 'banner',
      method: 'Accept All',
      rule: { rule: 'opt_in', region: 'DE' },
      purposes: [
        { purpose: 'Strictly necessary storage (remembering this choice)', granted: true, shownAs: { name: 'Necessary', description: 'Keeps the site working.' } },
        { purpose: 'Analytics cookies and scripts', granted: true, shownAs: { name: 'Statistik', description: 'Hilft uns, die Seite zu verbessern.' } },
      ],
      termination: 'Until the visitor changes their choice.',
    },
    notice: {
      policyVersion: '1',
      language: 'de',
      browserLanguage: 'de-DE',
      heading: 'Ihre Privatsphäre',
      text: 'Wir verwenden Cookies nur mit Ihrer Zustimmung.',
      buttons: ['Anpassen', 'Alle ablehnen', 'Alle akzeptieren'],
      privacyPolicyLink: null,
      pageUrl: 'https://trattoria.example/menu',
      textsHash: 'a'.repeat(64),
      texts: null,
    },
    event,
    proofStatus: 'sealed',
    proof: {
      algorithm: 'rfc9162-sha256',
      leafDigest: digests[1]!.toString('hex'),
      leafIndex: 1,
      treeSize: 3,
      path: [a.toString('hex'), c.toString('hex')],
      seal: { ...header, sealHash, signature },
    },
    timestamp: null,
    verification: { publicKeyUrl: 'http://localhost/.well-known/consentry/seal-key', keyId, howTo: 'node verify-receipt.mjs receipt.json seal-key.pem' },
  };
  return { receipt, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), keyId };
}

