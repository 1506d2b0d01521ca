export { apiPlugin, sessionCookieName, type ApiOptions, type ReadinessCheck } from './app';
export { buildMetricsServer, createLedgerMetrics, createMetricsRegistry, metricsPlugin, type MetricsOptions, type MetricsServerOptions } from './metrics';
export { createStatusMetrics, processRoles, type StatusMetricsOptions } from './status-metrics';
export {
  parseReaderCheckpointName,
  readSystemStatus,
  relayCheckpointName,
  sealerLeadershipName,
  type CheckpointPartition,
  type CheckpointStatus,
  type LagFigure,
  type LeaderRef,
  type ProjectionStatus,
  type ReadSystemStatusOptions,
  type ReaderCheckpointName,
  type SealStatus,
  type SystemStatus,
} from './system-status';
export { ensureInitialAdmin, saveAdmin, AdminInputError, defaultAdminUsername, type InitialAdminOptions, type InitialAdminOutcome } from './auth/admins';
export { seedSubscriptionPlans, planCatalogue } from './plans/catalogue';
export type { SignInLimits } from './auth/routes';
export type { PasswordHashing } from './auth/passwords';
export { webAppPlugin, type WebAppOptions } from './web-app';
export { widgetOneTexts, buildConsentReceipt, sealKeyPath, type ConsentReceipt } from './receipts/receipt';
