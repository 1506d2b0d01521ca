// The Verify Installation result panel: what the api found on the website's page, why it failed, and
// when the ledger last received an event from the site (a banner that records choices is installed,
// whatever a single page fetch says).
import { CircleCheckBig, CircleX } from 'lucide-react';
import { formatDateTime } from '../../lib/format';
import type { VerificationDetails, VerificationResult } from './verify-installation';

const commonIssues = [
  'The script was not found in the page (check that it is in the HTML you publish).',
  'The embed code is incorrect (copy it again from the Basic tab).',
  'The website blocks external scripts (allow this host in your Content Security Policy).',
  'The website URL is not accessible from the internet.',
];

function describeLastEvent(details: VerificationDetails | null): string | null {
  if (!details) return null;
  return details.lastEventAt ? `Last event received: ${formatDateTime(details.lastEventAt)}` : 'No events received from this website yet.';
}

function describeCheckedPage(details: VerificationDetails | null): string | null {
  if (!details?.url) return null;
  const status = details.statusCode === null ? '' : ` (HTTP ${details.statusCode})`;
  return `Checked ${details.url}${status}`;
}

export function VerificationResultPanel({ result }: { result: VerificationResult | null }) {
  const checkedPage = result ? describeCheckedPage(result.details) : null;
  const lastEvent = result ? describeLastEvent(result.details) : null;
  return (
    <div role="status" aria-label="Verification result">
      {result?.state === 'success' ? (
        <div className="flex gap-3 rounded-md border border-green-300 bg-green-50 p-4 text-green-900">
          <CircleCheckBig className="size-5 shrink-0" aria-hidden />
          <div className="min-w-0 space-y-1 text-sm">
            {/* Verified by the page, or by events arriving when no page could be fetched: what proves it first. */}
            <p className="font-medium">{result.message}</p>
            {result.details?.reason ? (
              <>
                {lastEvent ? <p>{lastEvent}</p> : null}
                <p className="break-words">The page itself could not be checked from this server: {result.details.reason}</p>
              </>
            ) : (
              <>
                {checkedPage ? <p className="wrap-anywhere">{checkedPage}</p> : null}
                {lastEvent ? <p>{lastEvent}</p> : null}
              </>
            )}
          </div>
        </div>
      ) : result?.state === 'error' ? (
        <div className="flex gap-3 rounded-md border border-red-300 bg-red-50 p-4 text-red-900">
          <CircleX className="size-5 shrink-0" aria-hidden />
          <div className="min-w-0 space-y-2 text-sm">
            <p className="font-medium">{result.message}</p>
            {result.details?.reason ? <p className="break-words">Reason: {result.details.reason}</p> : null}
            {checkedPage ? <p className="wrap-anywhere">{checkedPage}</p> : null}
            {lastEvent ? <p>{lastEvent}</p> : null}
            <p>Common issues:</p>
            <ul className="list-disc space-y-1 pl-5">
              {commonIssues.map((issue) => (
                <li key={issue}>{issue}</li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
    </div>
  );
}
