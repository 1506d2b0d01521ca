// The banner stream family: the exact texts a website's banner showed, recorded once per distinct set
// (content-addressed by the hash a consent event names), so a receipt can show a visitor what they
// read, in their language, however the owner's wording or our translations change later.
import { z } from 'zod';
import { bannerLanguage, bannerText, bannerTextKeys, type BannerTextKey } from './banner-texts';
import { textsHash } from './consent';
import { defineEvent, type EventOf } from './definition';
import { isoDateTime } from './fields';

export const bannerTextsRecord = z.strictObject(
  Object.fromEntries(bannerTextKeys.map((key) => [key, bannerText])) as Record<BannerTextKey, typeof bannerText>,
);

export const BannerTextsPublishedData = z.strictObject({
  /** The SHA-256 (hex) of the texts in canonical form (`canonicalBannerTexts`). */
  textsHash,
  language: bannerLanguage,
  /** The name `{company}` stood for. */
  companyName: z.string().min(1).max(200),
  /** The texts with their placeholders, as the widget received them. */
  texts: bannerTextsRecord,
  publishedAt: isoDateTime,
});
export type BannerTextsPublishedData = z.infer<typeof BannerTextsPublishedData>;
export const BannerTextsPublished = defineEvent({
  type: 'BannerTextsPublished',
  version: 1,
  category: 'banner',
  schema: BannerTextsPublishedData,
});
export type BannerTextsPublished = EventOf<typeof BannerTextsPublished>;

export type BannerEvent = BannerTextsPublished;
export const bannerEventTypes = ['BannerTextsPublished'] as const satisfies readonly BannerEvent['type'][];

export const bannerTextsStreamId = (hash: string): string => `banner-texts-${hash}`;

/**
 * The event id of a set of texts: derived from its hash, so publishing the same texts again (every
 * config render does) is a duplicate the ledger ignores. Shaped as a UUID (version 8, custom).
 */
export function bannerTextsEventId(hash: string): string {
  const hex = hash.slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
