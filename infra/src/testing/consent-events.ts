// Builders of valid consent events for tests and benchmarks.
import { randomUUID } from 'node:crypto';
import { consentStreamId, grantAll, grantNone, legacyPurposes, type GrantedPurposes, type OptionalPurpose } from '@consentry/events';
import type { GroupAppendRequest } from '../event-store/group-commit';
import type { NewEvent } from '../event-store/types';

export interface ConsentEventInput {
  readonly websiteId: string;
  readonly choice?: 'accepted' | 'declined';
  readonly receivedAt?: string;
  readonly visitorId?: string;
  readonly eventId?: string;
  /** The visitor's language tag as sent (tests use it to carry hostile text past the edge). */
  readonly language?: string;
  /** The purposes granted; by default all three legacy ones for an acceptance, none for a decline. */
  readonly purposes?: GrantedPurposes;
}

export function consentEvent(input: ConsentEventInput): NewEvent & { eventId: string } {
  const receivedAt = input.receivedAt ?? new Date().toISOString();
  const declined = input.choice === 'declined';
  const purposes = input.purposes ?? (declined ? grantNone : grantAll(legacyPurposes));
  const data = {
    websiteId: input.websiteId,
    visitorId: input.visitorId ?? randomUUID(),
    source: 'banner' as const,
    offered: [...legacyPurposes] as OptionalPurpose[],
    purposes,
    method: declined ? ('reject_all' as const) : input.purposes ? ('custom' as const) : ('accept_all' as const),
    rule: { rule: 'opt_in' as const, region: 'EU' },
    policyVersion: '1',
    shownLanguage: 'en',
    textsHash: null,
    language: input.language ?? 'en-US',
    pageUrl: 'https://www.example.com/',
    ipAddress: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    deviceClass: 'desktop' as const,
    country: 'DE',
    city: 'Berlin',
    email: null,
    occurredAt: receivedAt,
    receivedAt,
  };
  const eventId = input.eventId ?? randomUUID();
  return declined
    ? { type: 'ConsentDeclined', eventId, data }
    : { type: 'ConsentGiven', eventId, data };
}

/** A request for the group-commit appender: one consent in the visitor's consent stream. */
export function consentAppendRequest(input: ConsentEventInput): GroupAppendRequest {
  const visitorId = input.visitorId ?? randomUUID();
  return { streamId: consentStreamId(input.websiteId, visitorId), event: consentEvent({ ...input, visitorId }) };
}
