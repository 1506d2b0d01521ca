// One guard at the HTTP edge for a whole class of bad input: text that no string field may hold.
// A NUL character cannot be stored in a Postgres text or jsonb value, and a lone UTF-16 surrogate is
// not Unicode (it turns into invalid JSON escapes and replacement characters downstream). Either used
// to reach the database, fail the statement — and on the consent path the whole group-commit batch,
// so other visitors' consents failed with it. Every route's validator (api and ingest) runs this check
// on the parsed body, query and params first, so every string field of every route, present and
// future, refuses them with a 400 that names the field.

// With the u flag a surrogate pair reads as one astral code point, so only an unpaired one is a Cs.
const loneSurrogate = /\p{Cs}/u;

/** Why a string cannot be taken, or null when it can. */
export function unsafeTextReason(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL (\\u0000) characters';
  if (loneSurrogate.test(text)) return 'must be well-formed Unicode (it contains an unpaired surrogate)';
  return null;
}

export interface UnsafeText {
  /** JSON-pointer-like path of the field (`/firstName`, `/features/2/title`); '' for the value itself. */
  readonly path: string;
  readonly reason: string;
}

const maxDepth = 64;

/** The first string (or object key) in a parsed JSON value that no field may hold; null if none. */
export function findUnsafeText(value: unknown): UnsafeText | null {
  // Nearly every input is clean: one pass that builds no paths, and the second only to name the field.
  return holdsUnsafeText(value, 0) ? locateUnsafeText(value, '', 0) : null;
}

// Either kind of unsafe character, in one test per string (NUL is the character the rule is about).
// eslint-disable-next-line no-control-regex
const unsafeCharacter = /[\u0000\p{Cs}]/u;

function holdsUnsafeText(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return unsafeCharacter.test(value);
  if (value === null || typeof value !== 'object' || depth >= maxDepth) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (holdsUnsafeText(value[index], depth + 1)) return true;
    return false;
  }
  for (const key of Object.keys(value)) {
    if (unsafeCharacter.test(key) || holdsUnsafeText((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

function locateUnsafeText(value: unknown, path: string, depth: number): UnsafeText | null {
  if (typeof value === 'string') {
    const reason = unsafeTextReason(value);
    return reason ? { path, reason } : null;
  }
  if (value === null || typeof value !== 'object' || depth >= maxDepth) return null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = locateUnsafeText(item, `${path}/${index}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyReason = unsafeTextReason(key);
    if (keyReason) return { path, reason: `field names ${keyReason}` };
    const found = locateUnsafeText(item, `${path}/${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** A validation failure in the shape Fastify and both services' error handlers read. */
export class UnsafeTextError extends Error {
  readonly validation: ReadonlyArray<{ instancePath: string; message: string }>;
  constructor(found: UnsafeText) {
    super(`${found.path.replace(/^\//, '').replace(/\//g, '.') || 'value'}: ${found.reason}`);
    this.name = 'UnsafeTextError';
    this.validation = [{ instancePath: found.path, message: found.reason }];
  }
}

/**
 * Wraps a Fastify validator compiler (fastify-type-provider-zod's) so that every validation first
 * refuses unsafe text anywhere in the input, then runs the route's own schema.
 */
export function withSafeText<TRoute, TResult>(
  compile: (route: TRoute) => (data: unknown) => TResult,
): (route: TRoute) => (data: unknown) => TResult | { error: UnsafeTextError } {
  return (route) => {
    const validate = compile(route);
    return (data) => {
      const found = findUnsafeText(data);
      return found ? { error: new UnsafeTextError(found) } : validate(data);
    };
  };
}
