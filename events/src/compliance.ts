// Events of the compliance jobs (DESIGN.md, "The event log" items 2 and 7): a seal closing a range of
// the log into a signed Merkle root, a purge removing what retention no longer allows, and an
// erasure removing one visitor's personal data. Each records what it did, so the log explains every
// row that is no longer there and every row that no longer matches its seal.
import { z } from 'zod';
import { defineEvent, type EventOf, type EventUpcaster } from './definition';
import { bannerPosition, bannerTheme, deviceClass, isoDateTime, uuid, visitorId, websiteId } from './fields';
import { consentSource } from './consent';
import { identificationErasableFields } from './identification';
import { consentMethod, legacyPurposes, optionalPurposes, type ConsentMethod, type OptionalPurpose } from './purposes';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, { error: 'Expected a SHA-256 digest as 64 lower-case hex digits' });
/** A place in the log's global order; transactionId is an xid8, written as decimal text. */
const logKey = z.strictObject({ transactionId: z.string().regex(/^\d{1,20}$/), position: z.int().min(1) });
const day = z.iso.date();
const count = z.int().min(0);

/** The stream every seal is appended to; its version is the seal's sequence number. */
export const sealStreamId = 'ledger-seals';

export const LedgerSealedData = z.strictObject({
  /** 1, 2, 3, …: the seal's place in the chain, equal to its version in the seal stream. */
  sequence: z.int().min(1),
  /** The range covers the events after `after` (exclusive; null: the start of the log) up to `last` (inclusive). */
  after: logKey.nullable(),
  last: logKey,
  eventCount: z.int().min(1).max(1_000_000),
  merkleRoot: sha256Hex,
  previousSealHash: sha256Hex.nullable(),
  sealedAt: isoDateTime,
  /** base64url SHA-256 of the signing key's public half (SPKI DER). */
  keyId: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  /** SHA-256 of the canonical JSON of every field above: what the signature signs, and what the next seal chains to. */
  sealHash: sha256Hex,
  /** Ed25519 signature of the 32 bytes of sealHash, base64. */
  signature: z.string().regex(/^[A-Za-z0-9+/]{86}==$/),
});
export type LedgerSealedData = z.infer<typeof LedgerSealedData>;
export const LedgerSealed = defineEvent({ type: 'LedgerSealed', version: 1, category: 'compliance', schema: LedgerSealedData });
export type LedgerSealed = EventOf<typeof LedgerSealed>;

/** Anonymous counts of what a purge removed, so statistics keep their historic totals after it and after a replay. */
export const PurgedConsentCounts = z.strictObject({
  day,
  deviceClass,
  source: consentSource,
  accepted: count,
  declined: count,
});
export const PurgedImpressionCounts = z.strictObject({
  day,
  position: bannerPosition,
  theme: bannerTheme,
  deviceClass,
  impressions: count,
});

const perPurpose = z.strictObject({ preferences: count, analytics: count, marketing: count, identification: count });

/** Choices a purge removed per day and method: how many, and how often each purpose was offered and granted. */
export const PurgedPurposeCounts = z.strictObject({
  day,
  method: consentMethod,
  choices: count,
  offered: perPurpose,
  granted: perPurpose,
});
export type PurgedPurposeCounts = z.infer<typeof PurgedPurposeCounts>;

export const EventsPurgedData = z.strictObject({
  /** One id per purge run; a run writes one event per batch. */
  purgeId: uuid,
  websiteId,
  /** Events received before this instant were removed. */
  cutoff: isoDateTime,
  retentionMonths: z.int().min(1).max(120),
  /** The positions removed by this batch, as inclusive [first, last] runs. */
  positions: z.array(z.tuple([z.int().min(1), z.int().min(1)])).min(1).max(10_000),
  removedEvents: z.int().min(1).max(100_000),
  consents: z.array(PurgedConsentCounts).max(10_000),
  purposes: z.array(PurgedPurposeCounts).max(10_000),
  impressions: z.array(PurgedImpressionCounts).max(10_000),
  purgedAt: isoDateTime,
});
export type EventsPurgedData = z.infer<typeof EventsPurgedData>;
/**
 * Version 1 summaries had no purposes; the consents they counted were all-or-nothing choices over the
 * three purposes every banner then had (see upcastConsentV1), so their purpose counts follow from the
 * accepted and declined counts.
 */
const upcastEventsPurgedV1: EventUpcaster = (data) => {
  const v1 = data as { consents: { day: string; source: string; accepted: number; declined: number }[] };
  const rows = new Map<string, PurgedPurposeCounts>();
  const add = (day: string, method: ConsentMethod, choices: number, granted: boolean) => {
    if (choices === 0) return;
    const key = `${day}|${method}`;
    const row = rows.get(key) ?? { day, method, choices: 0, offered: zeroes(), granted: zeroes() };
    row.choices += choices;
    for (const purpose of legacyPurposes) {
      row.offered[purpose] += choices;
      if (granted) row.granted[purpose] += choices;
    }
    rows.set(key, row);
  };
  for (const row of v1.consents) {
    add(row.day, 'accept_all', row.accepted, true);
    add(row.day, row.source === 'gpc' ? 'gpc' : 'reject_all', row.declined, false);
  }
  return { ...v1, purposes: [...rows.values()] };
};

function zeroes(): Record<OptionalPurpose, number> {
  return Object.fromEntries(optionalPurposes.map((purpose) => [purpose, 0])) as Record<OptionalPurpose, number>;
}

export const EventsPurged = defineEvent({
  type: 'EventsPurged',
  version: 2,
  category: 'compliance',
  schema: EventsPurgedData,
  upcasters: { 1: upcastEventsPurgedV1 },
});
export type EventsPurged = EventOf<typeof EventsPurged>;

/** What an erasure nulls in a consent event. */
export const erasableFields = ['ipAddress', 'userAgent', 'email', 'city', 'pageUrl'] as const;

/** What an erasure removes from a page view: its address and referrer down to their origins, its title. */
export const pageViewErasableFields = ['url', 'referrer', 'title'] as const;

/**
 * What an erasure removes, per event type: a choice's personal data and the page it was made on,
 * what identified the visitor, and the addresses and titles of their page views (whose query strings
 * and paths can hold what they typed).
 */
export const erasableFieldsByType: Readonly<Record<string, readonly string[]>> = {
  ConsentGiven: erasableFields,
  ConsentDeclined: erasableFields,
  PageViewed: pageViewErasableFields,
  ...identificationErasableFields,
};

/** Every field an erasure may name (a SubjectErased event lists the ones it nulled). */
export const subjectErasedFields = [
  ...erasableFields,
  'name',
  'company',
  'organisation',
  'asn',
  'details',
  ...pageViewErasableFields,
] as const;

/**
 * The origin of a page address (`https://shop.example:8443`): what analytics counts a visit by (the
 * referrer's host, and whether it is the site's own), without the path, query or credentials that can
 * hold what a visitor typed. null when the address names no host.
 */
function originOf(address: string): string | null {
  try {
    const url = new URL(address);
    return url.hostname === '' ? null : `${url.protocol}//${url.host}`;
  } catch {
    return null;
  }
}

/**
 * The fields an erasure changes in an event, with what they become: null, except a page view's url
 * and referrer, which keep their origin so that a replay counts referrers as before (top pages count
 * the `path`, which stays). Empty when nothing is left to erase.
 */
export function erasurePatchOf(type: string, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const field of erasableFieldsByType[type] ?? []) {
    const value = data[field];
    if (value == null) continue;
    const erased = type === 'PageViewed' && (field === 'url' || field === 'referrer') && typeof value === 'string'
      ? field === 'url'
        ? (originOf(value) ?? '/')
        : originOf(value)
      : null;
    if (erased !== value) patch[field] = erased;
  }
  return patch;
}

export const SubjectErasedData = z.strictObject({
  erasureId: uuid,
  websiteId,
  /** The visitor ids whose personal data was removed (pseudonymous ids the widget made; they keep the choice history together). */
  visitorIds: z.array(visitorId).min(1).max(1_000),
  fields: z.array(z.enum(subjectErasedFields)).min(1),
  /**
   * Every event rewritten, with the digest of its new content: `consentry verify` accepts a sealed
   * event that no longer matches its seal only when an erasure names it with exactly its new digest.
   */
  rewritten: z.array(z.strictObject({ position: z.int().min(1), eventId: uuid, digest: sha256Hex })).max(100_000),
  erasedAt: isoDateTime,
});
export type SubjectErasedData = z.infer<typeof SubjectErasedData>;
export const SubjectErased = defineEvent({ type: 'SubjectErased', version: 1, category: 'compliance', schema: SubjectErasedData });
export type SubjectErased = EventOf<typeof SubjectErased>;

/**
 * A deleted owner's personal data erased from their user stream: every email replaced by a
 * placeholder that names nobody (erasedOwnerEmail), every name nulled. Like SubjectErased it names
 * each rewritten event with its new digest, so the seals still verify.
 */
export const OwnerErasedData = z.strictObject({
  userId: uuid,
  rewritten: z.array(z.strictObject({ position: z.int().min(1), eventId: uuid, digest: sha256Hex })).max(100_000),
  erasedAt: isoDateTime,
});
export type OwnerErasedData = z.infer<typeof OwnerErasedData>;
export const OwnerErased = defineEvent({ type: 'OwnerErased', version: 1, category: 'compliance', schema: OwnerErasedData });
export type OwnerErased = EventOf<typeof OwnerErased>;

/** The stream every time-stamp token is appended to, whichever authority gave it. */
export const sealTimestampStreamId = 'ledger-seal-timestamps';

/**
 * An RFC 3161 time-stamp token for a seal's hash, from a Time-Stamping Authority the operator
 * configured (TSA_URL): proof from someone other than the operator that the seal — and, through the
 * chain, every seal before it — existed by `genTime`. The token itself (DER, base64) is what a
 * verifier checks; the other fields say which seal and authority it is about and what it said.
 */
export const SealTimestampedData = z.strictObject({
  sequence: z.int().min(1),
  sealHash: sha256Hex,
  /** The authority's URL, as configured. */
  tsa: z.url({ protocol: /^https?$/ }).max(2048),
  /** The TimeStampToken (a CMS ContentInfo with SignedData over TSTInfo), DER, base64. */
  token: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/).max(65_536),
  /** The time the authority put in the token (TSTInfo genTime). */
  genTime: isoDateTime,
  /** The token's serial number (TSTInfo serialNumber), lower-case hex. */
  serialNumber: z.string().regex(/^[0-9a-f]{1,64}$/),
});
export type SealTimestampedData = z.infer<typeof SealTimestampedData>;
export const SealTimestamped = defineEvent({ type: 'SealTimestamped', version: 1, category: 'compliance', schema: SealTimestampedData });
export type SealTimestamped = EventOf<typeof SealTimestamped>;

export type ComplianceEvent = LedgerSealed | SealTimestamped | EventsPurged | SubjectErased | OwnerErased;
export const complianceEventTypes = ['LedgerSealed', 'SealTimestamped', 'EventsPurged', 'SubjectErased', 'OwnerErased'] as const satisfies readonly ComplianceEvent['type'][];
