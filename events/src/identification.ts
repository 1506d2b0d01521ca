// The identification stream family (docs/identification.md): who a consenting visitor said they are,
// which company their network belongs to, what an enrichment provider added, and the owner's
// webhook endpoints that carry leads on to email, ads and CRM tools. Visitor-side events live on the
// visitor's consent stream (consentStreamId), beside the choices that allowed them, so a subject
// export, an erasure and a purge reach them the way they reach the choices.
import isEmail from 'validator/lib/isEmail.js';
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
import { actor, isoDateTime, uuid, visitorId, websiteId } from './fields';
import type { ConsentMethod, GrantedPurposes } from './purposes';

/**
 * Identification needs the visitor's own act: the identification purpose granted by Accept All or a
 * custom choice. A region's opt-out default never identifies anyone, whatever it grants otherwise.
 */
export function allowsIdentification(choice: { readonly purposes: GrantedPurposes; readonly method: ConsentMethod }): boolean {
  return choice.purposes.identification && (choice.method === 'accept_all' || choice.method === 'custom');
}

/**
 * Why identification is refused:
 * - `no_choice`: the visitor made no choice;
 * - `not_allowed`: their latest choice does not allow it (declined, the purpose switched off or not
 *   offered, or a region's default, which never identifies anyone);
 * - `not_latest_choice`: their latest choice allows it, but it is not the consent event named
 *   (unknown, another visitor's, or an earlier choice since replaced).
 */
export type IdentificationRefusal = 'no_choice' | 'not_allowed' | 'not_latest_choice';

export type IdentificationVerdict =
  | { readonly allowed: true; readonly consentEventId: string }
  | { readonly allowed: false; readonly reason: IdentificationRefusal };

/**
 * May this visitor be identified, relying on the consent event `consentEventId`? Only when that
 * event is the visitor's latest choice, on whatever banner it was made, and that choice allows it
 * (docs/identification.md, "The rule that keeps it lawful"). `latest` is read from the log.
 */
export function identificationVerdict(
  latest: { readonly eventId: string; readonly data: { readonly purposes: GrantedPurposes; readonly method: ConsentMethod } } | null,
  consentEventId: string,
): IdentificationVerdict {
  if (!latest) return { allowed: false, reason: 'no_choice' };
  if (!allowsIdentification(latest.data)) return { allowed: false, reason: 'not_allowed' };
  if (latest.eventId !== consentEventId.toLowerCase()) return { allowed: false, reason: 'not_latest_choice' };
  return { allowed: true, consentEventId: latest.eventId };
}

/** How the visitor identified themselves: a form on the owner's site, or the site's own call. */
export const identificationSources = ['form', 'call'] as const;
export const identificationSource = z.enum(identificationSources);
export type IdentificationSource = z.infer<typeof identificationSource>;

/**
 * What a mail server would deliver to, as `isEmail` of validator (a well-kept RFC 5321/5322 parser)
 * reads it, less the forms a lead never needs and markup hides in: a dot-atom local part (letters,
 * digits, ``!#$%&'*+-/=?^_`{|}~``, and non-ASCII as SMTPUTF8 allows), so plus addressing works but
 * quoted local parts (`"a b"@x`), display names (`Ada <a@x>`) and address literals (`a@[1.2.3.4]`)
 * are refused; a domain of hostname labels and a letter TLD (subdomains, `xn--` and Unicode IDN
 * labels); at most 64 bytes before the `@`, 254 characters in all; and no whitespace, control,
 * format (bidi, zero-width) or private-use character anywhere. widget/src/identify.ts restates it.
 */
const isEmailAddress = (email: string): boolean =>
  !/[\p{C}\p{Z}]/u.test(email) &&
  isEmail(email, {
    allow_display_name: false,
    allow_utf8_local_part: true,
    require_tld: true,
    allow_ip_domain: false,
    allow_underscores: false,
    domain_specific_validation: false,
    // A quoted local part is the one place an address may hold <, > and spaces.
    blacklisted_chars: '"',
  });

/**
 * A normalised email address: trimmed, lower-case and an address a mail server would take (above).
 * Normalise with `normaliseEmail` before parsing.
 */
export const normalisedEmail = z
  .string()
  .max(254)
  .refine((email) => email === email.toLowerCase() && isEmailAddress(email), { error: 'Expected a normalised email address' });

/** Trims and lower-cases an address; null when what is left is not an email address. */
export function normaliseEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return normalisedEmail.safeParse(email).success ? email : null;
}

const pageUrl = z.string().max(2048).nullable();
const personText = z.string().max(200);

/** The fields an erasure nulls in identification events (the visitor's personal data). */
export const identificationErasableFields = {
  VisitorIdentified: ['email', 'name', 'company', 'pageUrl'],
  CompanyMatched: ['organisation', 'asn'],
  LeadEnriched: ['details'],
} as const;

export const VisitorIdentifiedData = z.strictObject({
  websiteId,
  visitorId,
  source: identificationSource,
  /** null only once erased. */
  email: normalisedEmail.nullable(),
  name: personText.nullable(),
  company: personText.nullable(),
  /** The page the form was sent from, or the call made on. */
  pageUrl,
  /** The consent event that granted identification: the proof this was allowed. */
  consentEventId: uuid,
  occurredAt: isoDateTime,
  receivedAt: isoDateTime,
});
export type VisitorIdentifiedData = z.infer<typeof VisitorIdentifiedData>;
export const VisitorIdentified = defineEvent({ type: 'VisitorIdentified', version: 1, category: 'identification', schema: VisitorIdentifiedData });
export type VisitorIdentified = EventOf<typeof VisitorIdentified>;

/** The visitor's address belongs to a company's network (B2B: pro and business plans). */
export const CompanyMatchedData = z.strictObject({
  websiteId,
  visitorId,
  /** The autonomous system and its organisation; null only once erased. */
  asn: z.int().min(0).max(4_294_967_295).nullable(),
  organisation: personText.nullable(),
  consentEventId: uuid,
  matchedAt: isoDateTime,
});
export type CompanyMatchedData = z.infer<typeof CompanyMatchedData>;
export const CompanyMatched = defineEvent({ type: 'CompanyMatched', version: 1, category: 'identification', schema: CompanyMatchedData });
export type CompanyMatched = EventOf<typeof CompanyMatched>;

/** Business contact details an enrichment provider returned; every field may be unknown. */
export const enrichmentDetails = z.strictObject({
  name: personText.nullable(),
  title: personText.nullable(),
  company: personText.nullable(),
  domain: z.string().max(255).nullable(),
  industry: personText.nullable(),
  /** Employees, as the provider states it (`51-200`). */
  size: z.string().max(50).nullable(),
  linkedinUrl: z.string().max(500).nullable(),
  location: personText.nullable(),
});
export type EnrichmentDetails = z.infer<typeof enrichmentDetails>;

export const enrichmentProviderName = z.string().min(1).max(50);

export const LeadEnrichedData = z.strictObject({
  websiteId,
  visitorId,
  /** The enrichment job (one per identification or company match). */
  enrichmentId: uuid,
  provider: enrichmentProviderName,
  /** null only once erased. */
  details: enrichmentDetails.nullable(),
  enrichedAt: isoDateTime,
});
export type LeadEnrichedData = z.infer<typeof LeadEnrichedData>;
export const LeadEnriched = defineEvent({ type: 'LeadEnriched', version: 1, category: 'identification', schema: LeadEnrichedData });
export type LeadEnriched = EventOf<typeof LeadEnriched>;

/**
 * Why an enrichment ended without details: the provider knew nobody (`not_found`), kept failing until
 * the 24-hour deadline (`deadline`), refused the request for good (`rejected`), or the visitor
 * withdrew identification first (`withdrawn`).
 */
export const enrichmentFailureReasons = ['not_found', 'deadline', 'rejected', 'withdrawn'] as const;
export const EnrichmentFailedData = z.strictObject({
  websiteId,
  visitorId,
  enrichmentId: uuid,
  provider: enrichmentProviderName,
  reason: z.enum(enrichmentFailureReasons),
  /** What happened last, for the operator (never a secret). */
  detail: z.string().max(500),
  attempts: z.int().min(0).max(10_000),
  failedAt: isoDateTime,
});
export type EnrichmentFailedData = z.infer<typeof EnrichmentFailedData>;
export const EnrichmentFailed = defineEvent({ type: 'EnrichmentFailed', version: 1, category: 'identification', schema: EnrichmentFailedData });
export type EnrichmentFailed = EventOf<typeof EnrichmentFailed>;

/** What a webhook endpoint can be sent (Standard Webhooks `type`). */
export const webhookEventTypes = ['lead.identified', 'lead.enriched', 'consent.withdrawn'] as const;
export const webhookEventType = z.enum(webhookEventTypes);
export type WebhookEventType = z.infer<typeof webhookEventType>;

/** An owner's webhook endpoint; its signing secret is a credential, kept outside the log. */
export const WebhookEndpointAddedData = z.strictObject({
  websiteId,
  endpointId: uuid,
  url: z.url({ protocol: /^https?$/ }).max(2048),
  description: z.string().max(200),
  eventTypes: z.array(webhookEventType).min(1).max(webhookEventTypes.length),
  addedBy: actor,
  addedAt: isoDateTime,
});
export const WebhookEndpointAdded = defineEvent({ type: 'WebhookEndpointAdded', version: 1, category: 'identification', schema: WebhookEndpointAddedData });
export type WebhookEndpointAdded = EventOf<typeof WebhookEndpointAdded>;

export const WebhookEndpointRemovedData = z.strictObject({
  websiteId,
  endpointId: uuid,
  removedBy: actor,
  removedAt: isoDateTime,
});
export const WebhookEndpointRemoved = defineEvent({
  type: 'WebhookEndpointRemoved',
  version: 1,
  category: 'identification',
  schema: WebhookEndpointRemovedData,
});
export type WebhookEndpointRemoved = EventOf<typeof WebhookEndpointRemoved>;

export type VisitorIdentificationEvent = VisitorIdentified | CompanyMatched | LeadEnriched | EnrichmentFailed;
export const visitorIdentificationEventTypes = [
  'VisitorIdentified',
  'CompanyMatched',
  'LeadEnriched',
  'EnrichmentFailed',
] as const satisfies readonly VisitorIdentificationEvent['type'][];

export type WebhookEndpointEvent = WebhookEndpointAdded | WebhookEndpointRemoved;
export const webhookEndpointEventTypes = ['WebhookEndpointAdded', 'WebhookEndpointRemoved'] as const satisfies readonly WebhookEndpointEvent['type'][];

/** One stream per website for its webhook endpoints (visitor events go on the consent stream). */
export const webhookEndpointsStreamId = (websiteId: string): string => `webhooks-${websiteId}`;
