// How long a queue item waits before its next try: exponential, with jitter, never sooner than the
// other side asked (Retry-After). The enrichment worker's, and the CRM connectors' to come.

/** The back-off before the next try: exponential, with jitter, never sooner than asked. */
export function backoffMs(attempts: number, options: { baseMs: number; maxMs: number; retryAfterMs: number | null; random: number }): number {
  const exponential = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, Math.min(30, attempts - 1)));
  // "Equal jitter": half fixed, half random, so retries spread out but never collapse to zero.
  const jittered = exponential / 2 + (exponential / 2) * options.random;
  return Math.max(jittered, options.retryAfterMs ?? 0);
}
