// First-party localStorage access that never throws: storage can be disabled, full, or throw on mere
// access (Safari private mode, sandboxed iframes, blocked site data), and the widget must keep working
// for the current page when it does.

/** Every key the widget writes starts with this, so an owner can find (and clear) them. */
export const KEY_PREFIX = 'consentry:';

/** The parsed value under `key`; undefined when absent, unreadable or not JSON. */
export function readJson(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw == null ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** Stores `value` as JSON (removes the key for undefined); false when storage refused it. */
export function writeJson(key: string, value: unknown): boolean {
  try {
    if (value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}
