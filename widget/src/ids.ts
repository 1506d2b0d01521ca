// Ids the widget mints itself: event ids (the ingest deduplication key, reused by every retry),
// visitor ids and page-view ids. All are UUID v4 as docs/ingest-protocol.md requires.

/**
 * A UUID v4. `crypto.randomUUID` exists only in secure contexts (https) and in browsers from 2021 on,
 * and many small business sites are still served over http, so fall back to `getRandomValues`, which
 * every browser the es2019 build runs in has.
 */
export function createUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const random = crypto.getRandomValues(new Uint8Array(31));
  let i = 0;
  // Each 0 and 1 of the template becomes a random hex digit; each 8 one of 8–b (the RFC 4122
  // variant); the 4 stays (version 4).
  return '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) =>
    (+c ^ ((random[i++] as number) & (15 >> (+c / 4)))).toString(16),
  );
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
