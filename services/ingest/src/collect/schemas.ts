// The bodies the widget sends (docs/ingest-protocol.md), validated at the edge with bounded
// schemas. Field schemas come from the event catalogue, so what passes here is what the log takes.
import { z } from 'zod';
import {
  bannerPosition,
  bannerTheme,
  consentMethod,
  consentSource,
  embedCode,
  engagementKind,
  grantedPurposes,
  grantsAny,
  identificationSource,
  isoDateTime,
  languageTag,
  normaliseEmail,
  offeredPurposes,
  optionalPurposes,
  policyVersion,
  textsHash,
  visitorId,
} from '@consentry/events';
import { stripPageAddress, stripPageSecrets, stripQuery } from './page-address';

// Lower-cased: one event has one id, whatever case the sender wrote it in.
const eventId = z.uuid({ error: 'Expected a UUID' }).transform((id) => id.toLowerCase());
const text = (max: number) => z.string().max(max);
/**
 * A page address without its fragment and credentials; its query string goes in the handler unless
 * the website keeps them (page-address.ts).
 */
const pageAddress = text(2048).transform(stripPageSecrets);
const optionalPageUrl = pageAddress.nullable().default(null);
/** The page a visitor identified on: never with its query string (page-address.ts). */
const identifyPageUrl = text(2048).transform(stripPageAddress).nullable().default(null);

/**
 * A choice: the purposes offered and granted and how (widget 2), or only `choice` from a widget 1
 * still in a browser's cache (an acceptance of every purpose its banner had, or a decline). With
 * both, they must agree: a choice that grants something is `accepted`.
 */
export const consentBody = z
  .strictObject({
    embedCode,
    eventId,
    visitorId,
    choice: z.enum(['accepted', 'declined']).optional(),
    offered: offeredPurposes.optional(),
    purposes: grantedPurposes.optional(),
    method: consentMethod.optional(),
    source: consentSource,
    policyVersion,
    pageUrl: optionalPageUrl,
    language: text(16).nullable().default(null),
    shownLanguage: languageTag.nullable().default(null),
    textsHash: textsHash.nullable().default(null),
    occurredAt: isoDateTime,
  })
  .check((ctx) => {
    const body = ctx.value;
    const issue = (path: string, message: string) => ctx.issues.push({ code: 'custom', input: body, path: [path], message });
    if (body.purposes === undefined) {
      if (body.choice === undefined) issue('purposes', 'Expected purposes (or, from an older widget, choice)');
      if (body.offered !== undefined) issue('purposes', 'Expected purposes with offered');
      return;
    }
    if (body.offered === undefined) issue('offered', 'Expected the purposes the banner offered');
    if (body.method === undefined) issue('method', 'Expected how the purposes were chosen');
    const offered = body.offered ?? [];
    const notOffered = optionalPurposes.filter((purpose) => body.purposes?.[purpose] && !offered.includes(purpose));
    if (notOffered.length > 0) issue('purposes', `Granted but not offered: ${notOffered.join(', ')}`);
    const accepted = grantsAny(body.purposes);
    if (body.choice !== undefined && (body.choice === 'accepted') !== accepted) {
      issue('choice', accepted ? 'A choice that grants a purpose is accepted' : 'A choice that grants no purpose is declined');
    }
  });
export type ConsentBody = z.infer<typeof consentBody>;

export const impressionBody = z.strictObject({ embedCode, eventId, position: bannerPosition, theme: bannerTheme });

export const pageviewBody = z.strictObject({
  embedCode,
  eventId,
  visitorId,
  pageviewId: eventId,
  url: pageAddress.refine((url) => stripQuery(url) !== '', { error: 'Expected the page address' }),
  referrer: pageAddress.default(''),
  title: text(256).default(''),
});

export const pagehideBody = z.strictObject({
  embedCode,
  eventId,
  visitorId,
  pageviewId: eventId,
  visibleMs: z.int().min(0).max(86_400_000),
});

export const engagementBody = z.strictObject({ embedCode, eventId, visitorId, pageviewId: eventId, kind: engagementKind });

/** A name or company as typed into a form: trimmed, at most 200 characters; empty is unknown (null). */
const personText = z
  .string()
  .max(200)
  .nullable()
  .default(null)
  .transform((value) => value?.trim() || null);

/**
 * Who a visitor who allowed identification said they are (docs/identification.md). The email is
 * normalised here (trimmed, lower case) and refused with a 400 naming the field when it is not an
 * address; the message never repeats what was sent.
 */
export const identifyBody = z.strictObject({
  embedCode,
  eventId,
  visitorId,
  /** The consent event the widget holds as the visitor's latest choice. */
  consentEventId: eventId,
  source: identificationSource,
  email: z
    .string()
    .max(320)
    .transform((raw, ctx) => {
      const email = normaliseEmail(raw);
      if (email === null) {
        ctx.issues.push({ code: 'custom', input: '', message: 'Expected an email address (name@example.com)' });
        return z.NEVER;
      }
      return email;
    }),
  name: personText,
  company: personText,
  pageUrl: identifyPageUrl,
  occurredAt: isoDateTime,
});
export type IdentifyBody = z.infer<typeof identifyBody>;

export const embedCodeParams = z.strictObject({ embedCode });

export const errorAnswer = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export const consentAnswer = z.object({ eventId: z.string(), status: z.enum(['stored', 'duplicate']) });
export const identifyAnswer = z.object({ eventId: z.string() });
export const acceptedAnswer = z.object({ status: z.enum(['stored', 'duplicate']) });
