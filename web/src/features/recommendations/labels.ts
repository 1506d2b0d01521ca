// Words and styles for the report's enums (spec section 4) and the metrics recommendations rest on.
import type { ImplementationDifficulty, RecommendationSeverity, RecommendationType } from './queries';

export const severityLabels: Record<RecommendationSeverity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

export const severityClasses: Record<RecommendationSeverity, string> = {
  critical: 'border-transparent bg-red-600 text-white',
  high: 'border-transparent bg-orange-100 text-orange-800',
  medium: 'border-transparent bg-yellow-100 text-yellow-800',
  low: 'border-transparent bg-secondary text-secondary-foreground',
};

export const typeLabels: Record<RecommendationType, string> = {
  consent_rate: 'Consent rate',
  compliance: 'Compliance',
  user_experience: 'User experience',
  performance: 'Performance',
  legal: 'Legal',
};

export const difficultyLabels: Record<ImplementationDifficulty, string> = {
  easy: 'Easy',
  medium: 'Medium',
  hard: 'Hard',
};

/** The metric names of docs/recommendations.md as people read them. */
export const metricLabels: Readonly<Record<string, string>> = {
  consentRate: 'Consent rate',
  totalConsents: 'Total consents',
  mobileConsentRate: 'Mobile consent rate',
  desktopConsentRate: 'Desktop consent rate',
  bannerImpressions: 'Banner impressions',
  bannerIgnoreRate: 'Banner ignore rate',
  bannerAnswerRate: 'Banner answer rate',
  gpcShare: 'Global Privacy Control share',
  lastEventDay: 'Last event received',
  retentionMonths: 'Retention period',
  ipAddressMode: 'IP address storage',
  privacyPolicyUrl: 'Privacy policy link',
};

export function getMetricLabel(metric: string): string {
  return metricLabels[metric] ?? metric.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** Metrics the website's settings hold, so a recommendation resting on them links to those settings. */
export const settingsMetrics = new Set(['retentionMonths', 'ipAddressMode', 'privacyPolicyUrl']);
