// The browser's check of a receipt, on a receipt built here the way the ledger builds one: an event
// among three under a seal (RFC 9162 tree, Ed25519 signature). A valid one verifies; changing the
// event, the seal, the signature or the key does not; one without a proof is pending.
import { describe, expect, it } from 'vitest';
import { buildReceipt } from './receipt-fixture.test-helper';
import { verifyReceipt, type ConsentReceipt } from './verify-receipt';

/** A deep copy to change one thing in. */
const copy = (receipt: ConsentReceipt) => JSON.parse(JSON.stringify(receipt)) as ConsentReceipt;

describe('verifyReceipt in the browser', () => {
  it('verifies a sealed consent and names the seal and the key', async () => {
    const { receipt, publicKeyPem, keyId } = buildReceipt();
    expect(await verifyReceipt(receipt, publicKeyPem)).toEqual({ status: 'valid', sealSequence: 4, keyId, sealedAt: '2026-11-27T10:00:05.000Z' });
  });

  it('refuses an event changed after sealing', async () => {
    const { receipt, publicKeyPem } = buildReceipt();
    const changed = copy(receipt);
    (changed.event.data as { ipAddress: string }).ipAddress = '198.51.100.7';
    expect(await verifyReceipt(changed, publicKeyPem)).toEqual({ status: 'invalid', problem: 'the event does not match the sealed digest (the event was changed)' });
  });

  it('refuses a summary that says other than the event', async () => {
    const { receipt, publicKeyPem } = buildReceipt();
    const changed = copy(receipt);
    changed.consent.choice = 'declined';
    expect((await verifyReceipt(changed, publicKeyPem)).status).toBe('invalid');
  });

  it('refuses a changed seal, a forged signature and another key', async () => {
    const { receipt, publicKeyPem } = buildReceipt();
    const sealChanged = copy(receipt);
    sealChanged.proof!.seal.sealedAt = '2026-11-27T11:00:00.000Z';
    expect(await verifyReceipt(sealChanged, publicKeyPem)).toEqual({ status: 'invalid', problem: 'the seal’s hash does not match its fields (the seal was changed)' });

    const forged = copy(receipt);
    forged.proof!.seal.signature = Buffer.alloc(64, 7).toString('base64');
    expect(await verifyReceipt(forged, publicKeyPem)).toEqual({ status: 'invalid', problem: 'the seal’s signature does not verify' });

    const other = buildReceipt();
    expect((await verifyReceipt(receipt, other.publicKeyPem)).status).toBe('invalid');
  });

  it('refuses a proof that leads elsewhere', async () => {
    const { receipt, publicKeyPem } = buildReceipt();
    const moved = copy(receipt);
    moved.proof!.leafIndex = 0;
    expect(await verifyReceipt(moved, publicKeyPem)).toEqual({ status: 'invalid', problem: 'the inclusion proof does not lead to the seal’s Merkle root' });
  });

  it('says pending for a consent not sealed yet', async () => {
    const { receipt, publicKeyPem } = buildReceipt();
    expect(await verifyReceipt({ ...receipt, proof: null, proofStatus: 'pending-seal' }, publicKeyPem)).toEqual({ status: 'pending' });
  });
});
