// `/receipts/$consentId`: a consent receipt a person can read, checked in the browser.
import { createFileRoute } from '@tanstack/react-router';
import { ReceiptPage } from '../../../features/receipts/receipt-page';
import { receiptQueryOptions, sealKeyQueryOptions } from '../../../features/receipts/queries';
import { prefetchScreenData } from '../../../lib/screen-data';

export const Route = createFileRoute('/_app/receipts/$consentId')({
  loader: ({ context: { queryClient }, params: { consentId } }) =>
    prefetchScreenData([queryClient.ensureQueryData(receiptQueryOptions(consentId)), queryClient.ensureQueryData(sealKeyQueryOptions())]),
  component: ReceiptRoute,
});

function ReceiptRoute() {
  const { consentId } = Route.useParams();
  return <ReceiptPage key={consentId} consentId={consentId} />;
}
