// A consent receipt (['receipts', consentId]) and the ledger's published seal key (['seal-key']),
// which the receipt page checks the receipt against in the browser.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ApiSchemas } from '../../lib/api-types';
import type { ConsentReceipt } from './verify-receipt';

export type SealKey = ApiSchemas['SealKey'];

/** The api's receipt, the JSON that Download JSON saves. */
export const receiptApiUrl = (consentId: string) => `/api/consents/${encodeURIComponent(consentId)}/receipt`;

export function receiptQueryOptions(consentId: string) {
  return queryOptions({
    queryKey: ['receipts', consentId],
    queryFn: () => getJson<ConsentReceipt>(receiptApiUrl(consentId)),
    // A consent newer than the last seal gets its proof within seconds: ask again while it has none.
    refetchInterval: (query) => (query.state.data && query.state.data.proof === null ? 5000 : false),
  });
}

export function sealKeyQueryOptions() {
  return queryOptions({
    queryKey: ['seal-key'],
    queryFn: () => getJson<SealKey>('/.well-known/consentry/seal-key'),
    staleTime: 60 * 60 * 1000,
  });
}
