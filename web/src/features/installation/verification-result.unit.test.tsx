// The Verify Installation result (spec sections 4 and 8) with what the api reports in `details`: the
// reason a verification failed and when the ledger last received an event from the website.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { VerificationResultPanel } from './verification-result';
import { toVerificationResult, type VerificationDetails } from './verify-installation';

const checked: VerificationDetails = {
  url: 'https://shop.example/',
  statusCode: 200,
  scriptFound: false,
  embedCodeFound: false,
  reason: 'The Consentry script was not found on https://shop.example/',
  lastEventAt: '2024-05-01T12:00:00.000Z',
};

describe('verification result', () => {
  it('shows why verification failed, the page checked and the last event received', () => {
    const result = toVerificationResult({ success: false, error: 'Could not verify the installation on your website.', details: checked });
    render(<VerificationResultPanel result={result} />);
    const panel = screen.getByRole('status', { name: 'Verification result' });
    expect(panel).toHaveTextContent('Could not verify the installation on your website.');
    expect(panel).toHaveTextContent('Reason: The Consentry script was not found on https://shop.example/');
    expect(panel).toHaveTextContent('Checked https://shop.example/ (HTTP 200)');
    expect(panel).toHaveTextContent(`Last event received: ${formatDateTime('2024-05-01T12:00:00.000Z')}`);
    expect(panel).toHaveTextContent('Common issues:');
  });

  it('says when no event was ever received and no page could be fetched', () => {
    const result = toVerificationResult({
      success: false,
      error: 'Could not verify the installation on your website.',
      details: { ...checked, url: null, statusCode: null, reason: 'shop.example could not be resolved', lastEventAt: null },
    });
    render(<VerificationResultPanel result={result} />);
    const panel = screen.getByRole('status', { name: 'Verification result' });
    expect(panel).toHaveTextContent('Reason: shop.example could not be resolved');
    expect(panel).toHaveTextContent('No events received from this website yet.');
    expect(panel).not.toHaveTextContent('Checked');
  });

  it('confirms a verified installation', () => {
    const result = toVerificationResult({
      success: true,
      message: 'Installation verified successfully!',
      details: { ...checked, scriptFound: true, embedCodeFound: true, reason: null },
    });
    render(<VerificationResultPanel result={result} />);
    const panel = screen.getByRole('status', { name: 'Verification result' });
    expect(panel).toHaveTextContent('Installation verified successfully!');
    expect(panel).toHaveTextContent('Checked https://shop.example/ (HTTP 200)');
    expect(panel).not.toHaveTextContent('Reason');
    expect(panel).not.toHaveTextContent('Common issues');
  });

  it('says first that events arrive, so the snippet works, and the page that could not be fetched second', () => {
    const result = toVerificationResult({
      success: true,
      message: 'The snippet works: events from this website are arriving.',
      details: { ...checked, url: null, statusCode: null, reason: 'shop.example could not be resolved' },
    });
    render(<VerificationResultPanel result={result} />);
    const panel = screen.getByRole('status', { name: 'Verification result' });
    const lines = [...panel.querySelectorAll('p')].map((line) => line.textContent);
    expect(lines).toEqual([
      'The snippet works: events from this website are arriving.',
      `Last event received: ${formatDateTime('2024-05-01T12:00:00.000Z')}`,
      'The page itself could not be checked from this server: shop.example could not be resolved',
    ]);
    expect(panel).not.toHaveTextContent('Common issues');
    expect(panel).not.toHaveTextContent('Could not verify');
  });

  it('is empty before anything was verified', () => {
    render(<VerificationResultPanel result={null} />);
    expect(screen.getByRole('status', { name: 'Verification result' })).toBeEmptyDOMElement();
  });
});
