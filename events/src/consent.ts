// The consent stream family: a visitor's choice on a website's banner, as the ingest service records
// it. These are the ledger's proof of what each visitor chose, so every field is bounded and typed.
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
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

export const consentSources = ['banner', 'gpc', 'reopened'] as const;
export const consentSource = z.enum(consentSources);
export type ConsentSource = z.infer<typeof consentSource>;

/** What is recorded with either choice; the event type carries the choice itself. */
export const ConsentChoiceData = z.strictObject({
  websiteId,
  visitorId,
  source: consentSource,
  policyVersion,
  language: z.string().min(1).max(16).nullable(),
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

export const ConsentGivenData = ConsentChoiceData;
export type ConsentGivenData = ConsentChoiceData;
export const ConsentGiven = defineEvent({
  type: 'ConsentGiven',
  version: 1,
  category: 'consent',
  schema: ConsentGivenData,
});
export type ConsentGiven = EventOf<typeof ConsentGiven>;

export const ConsentDeclinedData = ConsentChoiceData;
export type ConsentDeclinedData = ConsentChoiceData;
export const ConsentDeclined = defineEvent({
  type: 'ConsentDeclined',
  version: 1,
  category: 'consent',
  schema: ConsentDeclinedData,
});
export type ConsentDeclined = EventOf<typeof ConsentDeclined>;

export type ConsentEvent = ConsentGiven | ConsentDeclined;
export const consentEventTypes = ['ConsentGiven', 'ConsentDeclined'] as const satisfies readonly ConsentEvent['type'][];

/** One consent stream per visitor per website: the history of that visitor's choices there. */
export function consentStreamId(websiteId: string, visitorIdentifier: string): string {
  return `consent-${websiteId}-${visitorIdentifier}`;
}
