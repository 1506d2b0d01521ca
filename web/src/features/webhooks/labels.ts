// How webhooks read on screen, and the rules of the Add endpoint form (matching the api's: an http or
// https URL of at most 2048 characters, a description of at most 200, one event type at least).
import type { Checked } from '../website-settings/validation';
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEventType } from './queries';

export const webhookEventTypeLabels: Record<WebhookEventType, string> = {
  'lead.identified': 'Lead identified',
  'lead.enriched': 'Lead enriched',
  'consent.withdrawn': 'Consent withdrawn',
};

export const webhookEventTypeDescriptions: Record<WebhookEventType, string> = {
  'lead.identified': 'A visitor who allowed identification told you who they are.',
  'lead.enriched': 'Enrichment added business contact details to a lead.',
  'consent.withdrawn': 'A lead withdrew identification: remove them from your lists.',
};

export const deliveryStatusLabels: Record<WebhookDeliveryStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  delivered: 'Delivered',
  failed: 'Failed',
};

export const deliveryStatusVariants: Record<WebhookDeliveryStatus, 'secondary' | 'warning' | 'success' | 'destructive'> = {
  queued: 'secondary',
  sending: 'warning',
  delivered: 'success',
  failed: 'destructive',
};

/** The event type's name, or the type as sent when the app does not know it. */
export function formatWebhookEventType(type: string): string {
  return type in webhookEventTypeLabels ? webhookEventTypeLabels[type as WebhookEventType] : type;
}

/** The endpoint's last answer: `HTTP 500 · upstream timeout`, `HTTP 204`, the error alone, or '—' before any try. */
export function describeLastAnswer(delivery: Pick<WebhookDelivery, 'lastStatusCode' | 'lastError'>): string {
  const parts = [delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : null, delivery.lastError || null].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : '—';
}

/** A delivery can be sent again once it is not already waiting to be sent or being sent. */
export function canResend(delivery: Pick<WebhookDelivery, 'status'>): boolean {
  return delivery.status === 'delivered' || delivery.status === 'failed';
}

export const maxWebhookUrlLength = 2048;
export const maxWebhookDescriptionLength = 200;

export function checkWebhookUrl(input: string): Checked<string> {
  const text = input.trim();
  const problem = 'Enter a full http or https address, such as https://example.com/webhooks/consentry.';
  if (text === '') return { ok: false, problem };
  if (text.length > maxWebhookUrlLength) return { ok: false, problem: `Use an address of at most ${maxWebhookUrlLength} characters.` };
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, problem };
  } catch {
    return { ok: false, problem };
  }
  return { ok: true, value: text };
}

export function checkWebhookDescription(input: string): Checked<string> {
  const text = input.trim();
  if (text.length > maxWebhookDescriptionLength) return { ok: false, problem: `Use a description of at most ${maxWebhookDescriptionLength} characters.` };
  return { ok: true, value: text };
}

export function checkWebhookEventTypes(types: readonly WebhookEventType[]): Checked<WebhookEventType[]> {
  return types.length === 0 ? { ok: false, problem: 'Choose at least one event to send.' } : { ok: true, value: [...types] };
}
