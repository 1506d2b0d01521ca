// The bodies the widget sends (docs/ingest-protocol.md), validated at the edge with bounded
// schemas. Field schemas come from the event catalogue, so what passes here is what the log takes.
import { z } from 'zod';
import { bannerPosition, bannerTheme, consentSource, embedCode, engagementKind, isoDateTime, policyVersion, visitorId } from '@consentry/events';

// Lower-cased: one event has one id, whatever case the sender wrote it in.
const eventId = z.uuid({ error: 'Expected a UUID' }).transform((id) => id.toLowerCase());
const text = (max: number) => z.string().max(max);

export const consentBody = z.strictObject({
  embedCode,
  eventId,
  visitorId,
  choice: z.enum(['accepted', 'declined']),
  source: consentSource,
  policyVersion,
  pageUrl: text(2048).nullable().default(null),
  language: text(16).nullable().default(null),
  occurredAt: isoDateTime,
});
export type ConsentBody = z.infer<typeof consentBody>;

export const impressionBody = z.strictObject({ embedCode, eventId, position: bannerPosition, theme: bannerTheme });

export const pageviewBody = z.strictObject({
  embedCode,
  eventId,
  visitorId,
  pageviewId: eventId,
  url: text(2048).min(1),
  referrer: text(2048).default(''),
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

export const embedCodeParams = z.strictObject({ embedCode });

export const errorAnswer = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export const consentAnswer = z.object({ eventId: z.string(), status: z.enum(['stored', 'duplicate']) });
export const acceptedAnswer = z.object({ status: z.enum(['stored', 'duplicate']) });
