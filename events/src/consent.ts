// The consent stream family: a visitor's choice on a website's banner, as the ingest service records
// it. These are the ledger's proof of what each visitor chose, so every field is bounded and typed.
//
// Version 2 (granular consent) records the purposes granted, how they were chosen, the regional rule
// that applied and which texts the banner showed. Version 1 events were all-or-nothing over the
// purposes every banner then had; `upcastConsentV1` lifts them, and is the only place that knows how.
import { z } from 'zod';
import { defineEvent, type EventOf, type EventUpcaster } from './definition';
import {
  countryCode,
  deviceClass,
  emailAddress,
  ipAddress,
  isoDateTime,
  policyVersion,
  visitorId,
  websiteId,
} from './fields';
import {
  appliedRule,
  consentMethod,
  grantAll,
  grantedPurposes,
  grantNone,
  grantsAny,
  legacyPurposes,
  offeredPurposes,
  optionalPurposes,
  type GrantedPurposes,
} from './purposes';


/**
 * Where the choice was made: the banner's first layer or its preference centre (`banner`), without a
 * banner for a Global Privacy Control signal (`gpc`), the banner reopened from its floating button
 * (`reopened`), a blocked embed's placeholder (`placeholder`), the site's own script through the
 * widget's API (`api`), the "Do Not Sell or Share" link (`opt_out_link`), or the region's default
 * applied without asking (`jurisdiction`).
 */
export const consentSources = ['banner', 'gpc', 'reopened', 'placeholder', 'api', 'opt_out_link', 'jurisdiction'] as const;
export const consentSource = z.enum(consentSources);
export type ConsentSource = z.infer<typeof consentSource>;

/** A language tag as a browser reports it (`de-DE`), or as the banner was shown in (`de`). */
export const languageTag = z.string().min(1).max(16);

/** SHA-256 (hex) of the canonical JSON of the texts the banner showed (BannerTextsPublished). */
export const textsHash = z.string().regex(/^[0-9a-f]{64}$/, { error: 'Expected a SHA-256 hash in hex' });

/** What is recorded with either choice; the event type says whether anything was granted. */
export const ConsentChoiceData = z.strictObject({
  websiteId,
  visitorId,
  source: consentSource,
  /** The optional purposes the banner asked for, in canonical order. */
  offered: offeredPurposes,
  /** Each optional purpose, granted or not; only an offered one can be granted. */
  purposes: grantedPurposes,
  method: consentMethod,
  /** The rule of the visitor's region that applied. */
  rule: appliedRule,
  policyVersion,
  /** The language the banner's texts were shown in; null when no banner was shown or before v2. */
  shownLanguage: languageTag.nullable(),
  /** The exact texts shown (BannerTextsPublished); null when none were shown or before v2. */
  textsHash: textsHash.nullable(),
  /** The visitor's browser language (navigator.language). */
  language: languageTag.nullable(),
  pageUrl: z.string().max(2048).nullable(),
  ipAddress: ipAddress.nullable(),
  userAgent: z.string().max(512).nullable(),
  deviceClass,
  country: countryCode.nullable(),
  city: z.string().max(128).nullable(),
  /** Filled by enrichment later; null when the choice is recorded. */
  email: emailAddress.nullable(),
  /** The visitor's clock: what the visitor saw, not what we trust for ordering. */
  occurredAt: isoDateTime,
  /** The server's clock; statistics are bucketed by this. */
  receivedAt: isoDateTime,
});
export type ConsentChoiceData = z.infer<typeof ConsentChoiceData>;

/**
 * Lifts a version 1 choice: an acceptance granted every purpose the banner then had (preferences,
 * analytics and marketing; identification did not exist), a decline none. Its banner was the only
 * rule there was (opt-in, region unrecorded) and its texts were the English ones of receipts' v1.
 */
export function upcastConsentV1(accepted: boolean): EventUpcaster {
  return (data) => {
    const v1 = data as Record<string, unknown>;
    const purposes: GrantedPurposes = accepted ? grantAll(legacyPurposes) : { ...grantNone };
    return {
      ...v1,
      offered: [...legacyPurposes],
      purposes,
      method: accepted ? 'accept_all' : v1.source === 'gpc' ? 'gpc' : 'reject_all',
      rule: { rule: 'opt_in', region: null },
      shownLanguage: null,
      textsHash: null,
    };
  };
}

const grantsOnlyOffered = (data: ConsentChoiceData): boolean =>
  optionalPurposes.every((purpose) => !data.purposes[purpose] || data.offered.includes(purpose));
const onlyOffered = { error: 'Only a purpose the banner offered can be granted', path: ['purposes'] };

export const ConsentGivenData = ConsentChoiceData.refine(grantsOnlyOffered, onlyOffered).refine(
  (data) => grantsAny(data.purposes),
  { error: 'A ConsentGiven event grants at least one optional purpose', path: ['purposes'] },
);
export type ConsentGivenData = ConsentChoiceData;
export const ConsentGiven = defineEvent({
  type: 'ConsentGiven',
  version: 2,
  category: 'consent',
  schema: ConsentGivenData,
  upcasters: { 1: upcastConsentV1(true) },
});
export type ConsentGiven = EventOf<typeof ConsentGiven>;

export const ConsentDeclinedData = ConsentChoiceData.refine(grantsOnlyOffered, onlyOffered).refine(
  (data) => !grantsAny(data.purposes),
  { error: 'A ConsentDeclined event grants no optional purpose', path: ['purposes'] },
);
export type ConsentDeclinedData = ConsentChoiceData;
export const ConsentDeclined = defineEvent({
  type: 'ConsentDeclined',
  version: 2,
  category: 'consent',
  schema: ConsentDeclinedData,
  upcasters: { 1: upcastConsentV1(false) },
});
export type ConsentDeclined = EventOf<typeof ConsentDeclined>;

export type ConsentEvent = ConsentGiven | ConsentDeclined;
export const consentEventTypes = ['ConsentGiven', 'ConsentDeclined'] as const satisfies readonly ConsentEvent['type'][];

/** One consent stream per visitor per website: the history of that visitor's choices there. */
export function consentStreamId(websiteId: string, visitorIdentifier: string): string {
  return `consent-${websiteId}-${visitorIdentifier}`;
}
