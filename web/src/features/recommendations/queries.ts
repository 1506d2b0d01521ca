// Recommendation reports (spec sections 3 and 7; rules in docs/recommendations.md): one website over
// the last 7, 30 or 90 days, or every website over the last 30. Keys start with ['recommendations'],
// which the api's live updates name when the analytics read models advance.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ApiAnswer, ApiSchemas } from '../../lib/api-types';

export type RecommendationReport = ApiSchemas['RecommendationReport'];
/** `id` is `<rule id>:<website id>`, stable from one report to the next; reports come sorted by `priority`, lower first. */
export type Recommendation = RecommendationReport['recommendations'][number];
export type RecommendationSeverity = Recommendation['severity'];
export type RecommendationType = Recommendation['type'];
export type ImplementationDifficulty = Recommendation['implementationDifficulty'];
export type WebsiteRecommendations = ApiAnswer<'/api/recommendations/all'>[number];

export const recommendationPeriods = [7, 30, 90] as const;
export type RecommendationPeriod = (typeof recommendationPeriods)[number];
export const defaultRecommendationPeriod: RecommendationPeriod = 30;
/** The all-websites overview always covers the api's default period. */
export const overviewPeriod: RecommendationPeriod = 30;

export function allRecommendationsQueryOptions() {
  return queryOptions({
    queryKey: ['recommendations', 'all'],
    queryFn: () => getJson<WebsiteRecommendations[]>('/api/recommendations/all'),
  });
}

export function websiteRecommendationsQueryOptions(websiteId: string, days: RecommendationPeriod) {
  return queryOptions({
    queryKey: ['recommendations', 'website', websiteId, { days }],
    queryFn: () => getJson<RecommendationReport>(`/api/recommendations/website/${encodeURIComponent(websiteId)}?days=${days}`),
  });
}
