// Recommendation reports (spec sections 3 and 7; rules in docs/recommendations.md): one website over
// the last 7, 30 or 90 days, or every website over the last 30. Keys start with ['recommendations'],
// which the api's live updates name when the analytics read models advance.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';

export type RecommendationSeverity = 'critical' | 'high' | 'medium' | 'low';
export type RecommendationType = 'consent_rate' | 'compliance' | 'user_experience' | 'performance' | 'legal';
export type ImplementationDifficulty = 'easy' | 'medium' | 'hard';

export interface Recommendation {
  /** `<rule id>:<website id>`, stable from one report to the next. */
  id: string;
  type: RecommendationType;
  severity: RecommendationSeverity;
  title: string;
  description: string;
  impact: string;
  actionItems: string[];
  estimatedImprovement: string;
  timeToImplement: string;
  implementationDifficulty: ImplementationDifficulty;
  /** Lower is more urgent; reports come sorted by it. */
  priority: number;
  relatedMetrics: string[];
}

export interface RecommendationReport {
  consentRate: number;
  totalConsents: number;
  mobileConsentRate: number;
  desktopConsentRate: number;
  recommendations: Recommendation[];
}

export interface WebsiteRecommendations {
  website: { id: string; name: string; domain: string };
  consentRate: number;
  totalConsents: number;
  recommendations: Recommendation[];
}

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
