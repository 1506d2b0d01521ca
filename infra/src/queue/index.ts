// Durable queues in Postgres: the one runner every worker's loop is (queue-runner.ts), claim
// renewal, and the retry back-off. Each queue keeps its own SQL beside its worker.
export { backoffMs } from './backoff';
export { keepClaim, type ClaimRenewal } from './claim-renewal';
export { startQueueRunner, type Claimed, type ClaimRequest, type QueueRunner, type QueueRunnerOptions, type WorkContext } from './queue-runner';
