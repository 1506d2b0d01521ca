// Projections: the relay, the projector runtime, replay, and each projection with its queries.
import { brandingProjection } from './branding/projection';
import { consentRecordsProjection } from './consent-records/projection';
import { consentStatsProjection } from './consent-stats/projection';
import { exportsProjection } from './exports/projection';
import { websiteActivityProjection } from './website-activity/projection';
import type { Projection } from './projection';
import { websitesProjection } from './websites/projection';
import { analyticsProjection } from './analytics/projection';
import { consentDimensionsProjection } from './consent-dimensions/projection';
import { consentPurposesProjection } from './consent-purposes/projection';
import { usersProjection } from './users/projection';
import { plansProjection } from './plans/projection';
import { siteContentProjection } from './site-content/projection';
import { scansProjection } from './scans/projection';
import { leadsProjection } from './leads/projection';
import { webhookEndpointsProjection } from './webhook-endpoints/projection';
import { enrichmentQueueProjection } from './enrichment-queue/projection';
import { webhookDispatchProjection } from './webhook-dispatch/projection';

export * from './projection';
export { startRelay, type Relay, type RelayOptions } from './relay/relay';
export { startProjector, applyProjectionBatch, type Projector, type ProjectorOptions } from './runtime/projector';
export { replayProjection, type ReplayOptions, type ReplayProgress, type ReplaySummary } from './runtime/replay';
export {
  applyOrPark,
  countOpenDeadLetters,
  listDeadLetters,
  retryDeadLetters,
  type DeadLetter,
  type ListDeadLettersOptions,
  type RetryOutcome,
} from './runtime/dead-letters';
export { subjectOf, filterSubjectFor } from './runtime/bus-encoding';
export { preferredProcess, startPartitionBalancer, type PartitionBalancer } from './runtime/balancer';
export {
  checkPartitionLayout,
  lockProjectionCheckpoints,
  maxPartitions,
  parseCheckpointName,
  partitionCheckpointName,
  partitionCountOf,
  partitionOfEvent,
  partitionOfWebsite,
  partitionsOf,
  PartitionLayoutError,
  wholeProjection,
  type Partition,
  type ProjectionCheckpoints,
} from './runtime/partitions';
export { consentStatsProjection } from './consent-stats/projection';
export * from './consent-stats/queries';
export { consentRecordsProjection } from './consent-records/projection';
export * from './consent-records/queries';
export { websiteActivityProjection, getLastEventAt } from './website-activity/projection';
export { exportsProjection, listRecentExports, type ExportRecord } from './exports/projection';
export { websitesProjection } from './websites/projection';
export * from './websites/queries';
export { brandingProjection } from './branding/projection';
export * from './branding/queries';
export { usersProjection } from './users/projection';
export * from './users/queries';
export { plansProjection } from './plans/projection';
export * from './plans/queries';
export { siteContentProjection } from './site-content/projection';
export * from './site-content/queries';
export { scansProjection } from './scans/projection';
export * from './scans/queries';
export { leadsProjection, leadsTables, refoldLeads } from './leads/projection';
export {
  displayCompanyOf,
  foldLeadEvents,
  leadInputTypes,
  maxRecentPages,
  searchTextOf,
  utcMonthOf,
  type LeadState,
  type LeadDeltas,
  type RecentPage,
} from './leads/fold';
export * from './leads/queries';
export { webhookEndpointsProjection } from './webhook-endpoints/projection';
export * from './webhook-endpoints/queries';
export {
  enrichmentQueueProjection,
  defaultEnrichmentProvider,
  enrichmentDeadlineMs,
  enrichmentDomainOf,
  enrichmentJobIdOf,
  freeMailDomains,
  isFreeMailDomain,
  type EnrichmentInput,
} from './enrichment-queue/projection';
export { webhookDispatchProjection } from './webhook-dispatch/projection';
export {
  buildWebhookPayload,
  consentReceiptPath,
  webhookMessageIdOf,
  type WebhookLeadIdentity,
  type WebhookMessage,
  type WebhookPayload,
} from './webhook-dispatch/payload';

/** Projections applied in the append's own transaction (owner-side state, read-your-writes). */
export const inlineProjections: readonly Projection[] = [
  websitesProjection,
  brandingProjection,
  exportsProjection,
  usersProjection,
  plansProjection,
  siteContentProjection,
  scansProjection,
  webhookEndpointsProjection,
];

/** Projections fed from the bus, each run by its own projector. */
export const asyncProjections: readonly Projection[] = [
  consentStatsProjection,
  consentRecordsProjection,
  websiteActivityProjection,
  analyticsProjection,
  consentDimensionsProjection,
  consentPurposesProjection,
  leadsProjection,
  enrichmentQueueProjection,
  webhookDispatchProjection,
];

/** Every projection, inline and async: what `consentry replay` can rebuild. */
export const allProjections: readonly Projection[] = [...inlineProjections, ...asyncProjections];

export function findProjection(name: string): Projection | undefined {
  return allProjections.find((projection) => projection.name === name);
}
export { analyticsProjection, analyticsTables } from './analytics/projection';
export { visitorKeyOf } from './analytics/fold';
export * from './analytics/queries';
export { referrerDomainOf, directReferrer, searchEngines } from './analytics/referrers';
export { consentDimensionsProjection, foldConsentDimensions } from './consent-dimensions/projection';
export * from './consent-dimensions/queries';
export { consentPurposesProjection, foldConsentPurposes } from './consent-purposes/projection';
export * from './consent-purposes/queries';
export * from './recommendations/queries';
export {
  recommendationRules,
  recommendationSeverities,
  recommendationTypes,
  implementationDifficulties,
  runRecommendationRules,
  thresholds as recommendationThresholds,
  type Recommendation,
  type RecommendationRule,
  type RecommendationSeverity,
  type RecommendationType,
  type ImplementationDifficulty,
} from './recommendations/rules';
export { gatherRecommendationMetrics, toRecommendationMetrics, type RecommendationMetrics } from './recommendations/metrics';
