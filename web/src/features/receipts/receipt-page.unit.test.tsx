// The receipt page: what the visitor chose and was shown, in the words and language shown, and the
// verification this browser computes: verified against seal N by key K, pending, or not valid.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { ReceiptPage } from './receipt-page';
import { buildReceipt } from './receipt-fixture.test-helper';
import type { ConsentReceipt } from './verify-receipt';

function serve(receipt: ConsentReceipt | null, publicKeyPem: string) {
  return stubFetch({
    'GET /api/consents/': () => (receipt ? jsonResponse(receipt) : jsonResponse({ error: { code: 'CONSENT_NOT_FOUND', message: 'Consent not found' } }, 404)),
    'GET /.well-known/consentry/seal-key': () => jsonResponse({ algorithm: 'Ed25519', keyId: 'k', publicKey: publicKeyPem }),
  });
}

describe('the receipt page', () => {
  it('shows who chose what and what they read, and that it verifies against the seal and key', async () => {
    const { receipt, publicKeyPem, keyId } = buildReceipt();
    const { requests } = serve(receipt, publicKeyPem);
    renderInApp(<ReceiptPage consentId={receipt.consentReceiptId} />);
    expect(await screen.findByRole('heading', { name: `Verified against seal 4, signed by key ${keyId}` })).toBeInTheDocument();
    expect(requests[0]?.url).toBe(`/api/consents/${receipt.consentReceiptId}/receipt`);
    expect(screen.getByText('Accepted')).toBeInTheDocument();
    expect(screen.getByText('Statistik')).toBeInTheDocument();
    expect(screen.getByText('Ihre Privatsphäre')).toBeInTheDocument();
    expect(screen.getByText('Buttons: Anpassen · Alle ablehnen · Alle akzeptieren')).toBeInTheDocument();
    expect(screen.getByText(/^In German/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download JSON' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
  });

  it('says plainly when the receipt does not verify', async () => {
    const { receipt, publicKeyPem } = buildReceipt();
    const changed = JSON.parse(JSON.stringify(receipt)) as ConsentReceipt;
    (changed.event.data as { ipAddress: string }).ipAddress = '198.51.100.7';
    serve(changed, publicKeyPem);
    renderInApp(<ReceiptPage consentId={receipt.consentReceiptId} />);
    expect(await screen.findByRole('heading', { name: 'Does not verify' })).toBeInTheDocument();
    expect(screen.getByText(/the event does not match the sealed digest/)).toBeInTheDocument();
  });

  it('says a consent newer than the last seal is not sealed yet', async () => {
    const { receipt, publicKeyPem } = buildReceipt();
    serve({ ...receipt, proof: null, proofStatus: 'pending-seal' }, publicKeyPem);
    renderInApp(<ReceiptPage consentId={receipt.consentReceiptId} />);
    expect(await screen.findByRole('heading', { name: 'Not sealed yet' })).toBeInTheDocument();
  });

  it('says when there is no such receipt', async () => {
    const { publicKeyPem } = buildReceipt();
    serve(null, publicKeyPem);
    renderInApp(<ReceiptPage consentId="0b7c6f2e-1111-4222-8333-444455556666" />);
    expect(await screen.findByText('Receipt not found')).toBeInTheDocument();
  });
});
