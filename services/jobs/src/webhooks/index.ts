// Outgoing webhooks (docs/identification.md, "Webhooks"): Standard Webhooks signatures, the delivery
// worker of `consentry start`, and "Send again" for the api.
export {
  generateWebhookSecret,
  isWebhookSecret,
  signWebhook,
  verifyWebhook,
  webhookHeaders,
  webhookSecretPattern,
  WebhookVerificationError,
  type VerifyOptions,
} from './signature';
export { resendDelivery, type ResendOutcome } from './deliveries';
export {
  deliverClaimed,
  endpointRemovedError,
  startWebhookDeliveryWorker,
  webhookRetryScheduleMs,
  webhookUserAgent,
  type DeliveryTryReport,
  type WebhookWorker,
  type WebhookWorkerOptions,
} from './delivery-worker';
export { guardedPost, parseRetryAfter, type GuardedPostOptions, type PostResult } from './guarded-post';
