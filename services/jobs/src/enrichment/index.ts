// Lead enrichment (docs/identification.md, "Enrichment"): the provider interface and its adapters
// (our signed HTTP contract, docs/enrichment-provider.md, and Hunter.io), the queue worker of
// `consentry start`, and the re-check against the log that runs before every provider call.
import { createHttpEnrichmentProvider } from './http-provider';
import { createHunterEnrichmentProvider } from './hunter-provider';
import { assertNever } from '@consentry/events';
import type { EnrichmentProvider } from './provider';

export {
  boundedDetails,
  PermanentError,
  RetryableError,
  type EnrichmentCall,
  type EnrichmentInput,
  type EnrichmentProvider,
  type EnrichmentResult,
} from './provider';
export { createHttpEnrichmentProvider, httpProviderAnswer, type HttpProviderOptions } from './http-provider';
export { createHunterEnrichmentProvider, hunterApiBaseUrl, mapHunterAnswer, type HunterProviderOptions } from './hunter-provider';
export { checkIdentificationAllowed, type IdentificationCheck, type IdentificationCheckInput } from './identification-check';
export { enrichmentOutcomeEventId, takeRateTokens, type TokenGrant } from './jobs';
export {
  backoffMs,
  startEnrichmentWorker,
  type EnrichmentOutcomeKind,
  type EnrichmentOutcomeReport,
  type EnrichmentWorker,
  type EnrichmentWorkerOptions,
} from './worker';

/** The provider ENRICHMENT_PROVIDER names, built from its settings; null for `off`. */
export function enrichmentProviderFromConfig(config: {
  readonly ENRICHMENT_PROVIDER: 'off' | 'http' | 'hunter';
  readonly ENRICHMENT_URL?: string | undefined;
  readonly ENRICHMENT_SECRET?: string | undefined;
  readonly HUNTER_API_KEY?: string | undefined;
}): EnrichmentProvider | null {
  switch (config.ENRICHMENT_PROVIDER) {
    case 'off':
      return null;
    case 'http':
      // Configuration validation guarantees both when the provider is http.
      return createHttpEnrichmentProvider({ url: config.ENRICHMENT_URL!, secret: config.ENRICHMENT_SECRET! });
    case 'hunter':
      return createHunterEnrichmentProvider({ apiKey: config.HUNTER_API_KEY! });
    default:
      return assertNever(config.ENRICHMENT_PROVIDER);
  }
}
