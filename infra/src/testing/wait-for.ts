// Waits for a condition instead of sleeping a fixed time: tests that sleep are slow when the machine
// is idle and flaky when it is busy. Polls, because the conditions tests wait on (rows arrived,
// messages processed) rarely come with an event to listen to.

export interface WaitForOptions {
  /** Give up after this long; the default suits conditions that should hold within a second or two. */
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
  /** Says what was awaited, so a timeout explains itself. */
  readonly message?: string;
}

/**
 * Resolves with the condition's first truthy result; rejects when `timeoutMs` passes first. A
 * condition that throws is treated as not yet true, and its last error is reported on timeout.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  options: WaitForOptions | number = {},
): Promise<NonNullable<T>> {
  const { timeoutMs = 5_000, intervalMs = 10, message = 'condition' } =
    typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const result = await condition();
      if (result) return result as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
