// The texts a config hands the banner, named by their hash and recorded in the ledger before any
// visitor can see them (BannerTextsPublished, once per distinct set), so a consent event's `textsHash`
// always leads a receipt to the exact words, in the language shown.
import { createHash } from 'node:crypto';
import {
  bannerTextsEventId,
  bannerTextsStreamId,
  canonicalBannerTexts,
  type BannerLanguage,
  type BannerTexts,
} from '@consentry/events';
import { appendToStream, type Db } from '@consentry/infra';

export interface BannerTextsPublisher {
  /** The hash of the texts, once they are in the ledger. */
  publish(language: BannerLanguage, companyName: string, texts: BannerTexts): Promise<string>;
}

export function createBannerTextsPublisher(pool: Db, maxRemembered = 10_000): BannerTextsPublisher {
  // Hashes known to be stored: a config is rendered every few seconds per website and language, and
  // the same texts need no second round trip (a repeat would be a duplicate the ledger ignores anyway).
  const published = new Set<string>();
  return {
    async publish(language, companyName, texts) {
      const textsHash = createHash('sha256').update(canonicalBannerTexts(language, texts, companyName)).digest('hex');
      if (published.has(textsHash)) return textsHash;
      await appendToStream(pool, bannerTextsStreamId(textsHash), [
        {
          eventId: bannerTextsEventId(textsHash),
          type: 'BannerTextsPublished',
          data: { textsHash, language, companyName, texts, publishedAt: new Date().toISOString() },
        },
      ]);
      if (published.size >= maxRemembered) published.clear();
      published.add(textsHash);
      return textsHash;
    },
  };
}
