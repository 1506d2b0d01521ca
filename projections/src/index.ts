// Projections: the relay, the projector runtime, replay, and each projection with its queries.
import { consentStatsProjection } from './consent-stats/projection';
import type { Projection } from './projection';

export * from './projection';
export { startRelay, type Relay, type RelayOptions } from './relay/relay';
export { startProjector, applyProjectionBatch, type Projector, type ProjectorOptions } from './runtime/projector';
export { replayProjection, type ReplayOptions, type ReplayProgress, type ReplaySummary } from './runtime/replay';
export { subjectOf, filterSubjectFor } from './runtime/bus-encoding';
export { consentStatsProjection } from './consent-stats/projection';
export * from './consent-stats/queries';

/** Projections fed from the bus, each run by its own projector. */
export const asyncProjections: readonly Projection[] = [consentStatsProjection];

export function findAsyncProjection(name: string): Projection | undefined {
  return asyncProjections.find((projection) => projection.name === name);
}
