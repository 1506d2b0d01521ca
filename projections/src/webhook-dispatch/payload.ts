// What a webhook delivery carries (docs/identification.md, "Webhooks"): the Standard Webhooks body
// `{ type, timestamp, data }` of each message type, built in one place for the dispatch reactor, the
// webhook worker's "send again" and the tests. The message id is the source event's, so every try of
// a delivery, and a resend, carries the same `webhook-id` and receivers can deduplicate.
import type {
  ConsentMethod,
  EnrichmentDetails,
  IdentificationSource,
  OptionalPurpose,
  WebhookEventType,
} from '@consentry/events';

/** Who the visitor said they are, as last known (null once erased, or never said). */
export interface WebhookLeadIdentity {
  readonly email: string | null;
  readonly name: string | null;
  readonly company: string | null;
}

interface MessageBase {
  readonly websiteId: string;
  readonly visitorId: string;
  /** When it happened (the event's own time): the body's `timestamp`. */
  readonly at: string;
  readonly identity: WebhookLeadIdentity;
  /** The consent proof: the choice that allowed identification, or for a withdrawal the withdrawing one. */
  readonly consentEventId: string;
}

export type WebhookMessage =
  | (MessageBase & { readonly type: 'lead.identified'; readonly source: IdentificationSource; readonly pageUrl: string | null })
  | (MessageBase & { readonly type: 'lead.enriched'; readonly provider: string; readonly details: EnrichmentDetails | null })
  | (MessageBase & { readonly type: 'consent.withdrawn'; readonly method: ConsentMethod; readonly granted: readonly OptionalPurpose[] });

export interface WebhookPayload {
  readonly type: WebhookEventType;
  readonly timestamp: string;
  readonly data: Record<string, unknown>;
}

/** The path of a consent's receipt (the api serves it; prefix the public URL for a link). */
export const consentReceiptPath = (consentEventId: string): string => `/api/consents/${consentEventId}/receipt`;

/** The Standard Webhooks message id (`webhook-id`) of the messages a source event causes. */
export const webhookMessageIdOf = (sourceEventId: string): string => `msg_${sourceEventId}`;

export function buildWebhookPayload(message: WebhookMessage): WebhookPayload {
  const common = {
    websiteId: message.websiteId,
    visitorId: message.visitorId,
    email: message.identity.email,
    name: message.identity.name,
    company: message.identity.company,
  };
  const proof = { consentEventId: message.consentEventId, receiptUrl: consentReceiptPath(message.consentEventId) };
  switch (message.type) {
    case 'lead.identified':
      return {
        type: message.type,
        timestamp: message.at,
        data: { ...common, source: message.source, pageUrl: message.pageUrl, identifiedAt: message.at, ...proof },
      };
    case 'lead.enriched':
      return {
        type: message.type,
        timestamp: message.at,
        data: {
          ...common,
          enrichment: {
            provider: message.provider,
            name: message.details?.name ?? null,
            title: message.details?.title ?? null,
            company: message.details?.company ?? null,
            domain: message.details?.domain ?? null,
            industry: message.details?.industry ?? null,
            size: message.details?.size ?? null,
            linkedinUrl: message.details?.linkedinUrl ?? null,
            location: message.details?.location ?? null,
          },
          enrichedAt: message.at,
          ...proof,
        },
      };
    case 'consent.withdrawn':
      return {
        type: message.type,
        timestamp: message.at,
        data: { ...common, withdrawnAt: message.at, method: message.method, granted: [...message.granted], ...proof },
      };
    default: {
      const unhandled: never = message;
      throw new Error(`webhooks: unknown message ${(unhandled as WebhookMessage).type}`);
    }
  }
}
