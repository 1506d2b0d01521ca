// Embed code → website, on the hot path of every collection request. A short-lived in-memory cache
// keeps a flood of requests (or of bogus codes) from becoming a flood of queries; a deactivated or
// removed website therefore stops collecting within `ttlMs`.
import { StoreUnavailableError, type Db } from '@consentry/infra';
import { getWebsiteByEmbedCode, type Website } from '@consentry/projections';

export interface WebsiteResolver {
  resolve(embedCode: string): Promise<Website | null>;
}

export function createWebsiteResolver(pool: Db, options: { ttlMs?: number; maxEntries?: number } = {}): WebsiteResolver {
  const ttlMs = options.ttlMs ?? 5_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const cache = new Map<string, { website: Promise<Website | null>; expires: number }>();
  return {
    resolve(embedCode) {
      const now = Date.now();
      const hit = cache.get(embedCode);
      if (hit && hit.expires > now) return hit.website;
      if (cache.size >= maxEntries) {
        // Map iteration is insertion order: drop the oldest tenth.
        let drop = Math.ceil(maxEntries / 10);
        for (const key of cache.keys()) {
          cache.delete(key);
          if (--drop === 0) break;
        }
      }
      const website = getWebsiteByEmbedCode(pool, embedCode).catch((error: unknown) => {
        // The database is the ledger: not reaching it is the ledger being unavailable (503).
        throw new StoreUnavailableError('The ledger database cannot be reached', { cause: error });
      });
      cache.set(embedCode, { website, expires: now + ttlMs });
      // A failed lookup must not be remembered.
      website.catch(() => cache.delete(embedCode));
      return website;
    },
  };
}
