// The widget runs inside someone else's page: an exception of ours must never reach their error
// handlers or break their scripts, so every entry point (start-up, event listeners, timers, promise
// callbacks) goes through `guard`.

/** `fn`, with any exception swallowed. */
export function guard<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    try {
      fn(...args);
    } catch {
      // Deliberately silent: a broken banner is better than a broken host page.
    }
  };
}

/** addEventListener with the listener guarded (one helper, as every listener of the widget needs it). */
export function listen<E extends Event = Event>(
  target: EventTarget,
  type: string,
  listener: (event: E) => void,
  capture?: boolean,
): void {
  target.addEventListener(type, guard(listener) as EventListener, capture);
}
