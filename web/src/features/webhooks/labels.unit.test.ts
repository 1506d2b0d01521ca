// Webhook rules: the Add endpoint form's checks, how a delivery's last answer reads, which deliveries
// can be sent again, the POST answer's shapes, and when the delivery log follows a delivery.
import { describe, expect, it } from 'vitest';
import { canResend, checkWebhookDescription, checkWebhookEventTypes, checkWebhookUrl, describeLastAnswer, formatWebhookEventType } from './labels';
import { deliveryPollIntervalMs, getDeliveryPollInterval, isDeliveryInFlight, readAddedEndpoint, readDeliveryPage, type WebhookDelivery } from './queries';

const now = Date.parse('2024-05-01T12:00:00Z');

function delivery(overrides: Partial<WebhookDelivery>): WebhookDelivery {
  return {
    id: 'd1',
    endpointId: 'e1',
    messageId: 'msg_1',
    eventType: 'lead.identified',
    status: 'delivered',
    attempts: 1,
    lastStatusCode: 204,
    lastError: null,
    createdAt: '2024-05-01T11:00:00Z',
    deliveredAt: '2024-05-01T11:00:01Z',
    nextAttemptAt: null,
    attemptLog: [],
    ...overrides,
  };
}

describe('add endpoint checks', () => {
  it('takes an http or https address', () => {
    expect(checkWebhookUrl(' https://crm.example/hooks ')).toEqual({ ok: true, value: 'https://crm.example/hooks' });
    expect(checkWebhookUrl('http://127.0.0.1:8080/in')).toMatchObject({ ok: true });
  });

  it.each(['', 'crm.example/hooks', 'ftp://crm.example/', 'javascript:alert(1)'])('refuses %j', (input) => {
    expect(checkWebhookUrl(input)).toEqual({ ok: false, problem: 'Enter a full http or https address, such as https://example.com/webhooks/consentry.' });
  });

  it('refuses an address over 2048 characters and a description over 200', () => {
    expect(checkWebhookUrl(`https://crm.example/${'a'.repeat(2048)}`)).toEqual({ ok: false, problem: 'Use an address of at most 2048 characters.' });
    expect(checkWebhookDescription('x'.repeat(201))).toEqual({ ok: false, problem: 'Use a description of at most 200 characters.' });
    expect(checkWebhookDescription('  CRM  ')).toEqual({ ok: true, value: 'CRM' });
  });

  it('needs one event at least', () => {
    expect(checkWebhookEventTypes([])).toEqual({ ok: false, problem: 'Choose at least one event to send.' });
    expect(checkWebhookEventTypes(['consent.withdrawn'])).toEqual({ ok: true, value: ['consent.withdrawn'] });
  });
});

describe('delivery log', () => {
  it('reads the last answer', () => {
    expect(describeLastAnswer({ lastStatusCode: 500, lastError: 'Internal Server Error' })).toBe('HTTP 500 · Internal Server Error');
    expect(describeLastAnswer({ lastStatusCode: 204, lastError: null })).toBe('HTTP 204');
    expect(describeLastAnswer({ lastStatusCode: null, lastError: 'timeout after 15 s' })).toBe('timeout after 15 s');
    expect(describeLastAnswer({ lastStatusCode: null, lastError: null })).toBe('—');
  });

  it('names event types, and shows unknown ones as sent', () => {
    expect(formatWebhookEventType('lead.enriched')).toBe('Lead enriched');
    expect(formatWebhookEventType('consent.withdrawn')).toBe('Consent withdrawn');
    expect(formatWebhookEventType('lead.merged')).toBe('lead.merged');
  });

  it('sends again only what is not already waiting or being sent', () => {
    expect(canResend({ status: 'delivered' })).toBe(true);
    expect(canResend({ status: 'failed' })).toBe(true);
    expect(canResend({ status: 'queued' })).toBe(false);
    expect(canResend({ status: 'sending' })).toBe(false);
  });

  it('follows a delivery being sent or due within a minute, and nothing else', () => {
    expect(isDeliveryInFlight(delivery({ status: 'sending' }), now)).toBe(true);
    expect(isDeliveryInFlight(delivery({ status: 'queued', nextAttemptAt: null }), now)).toBe(true);
    expect(isDeliveryInFlight(delivery({ status: 'queued', nextAttemptAt: '2024-05-01T12:00:45Z' }), now)).toBe(true);
    // The back-off's next try is hours away: nothing to follow until then.
    expect(isDeliveryInFlight(delivery({ status: 'queued', nextAttemptAt: '2024-05-01T14:00:00Z' }), now)).toBe(false);
    expect(isDeliveryInFlight(delivery({ status: 'delivered' }), now)).toBe(false);
    expect(isDeliveryInFlight(delivery({ status: 'failed' }), now)).toBe(false);

    expect(getDeliveryPollInterval(undefined, now)).toBe(false);
    expect(getDeliveryPollInterval([delivery({}), delivery({ status: 'failed' })], now)).toBe(false);
    expect(getDeliveryPollInterval([delivery({}), delivery({ status: 'sending' })], now)).toBe(deliveryPollIntervalMs);
  });
});

describe('readAddedEndpoint', () => {
  const endpoint = {
    id: 'e1',
    websiteId: 'w1',
    url: 'https://crm.example/hooks',
    description: '',
    eventTypes: ['lead.identified'],
    addedAt: '2024-05-01T12:00:00Z',
  };

  it('reads a nested endpoint or a spread one, with the secret', () => {
    expect(readAddedEndpoint({ endpoint, secret: 'whsec_abc' })).toEqual({ endpoint, secret: 'whsec_abc' });
    expect(readAddedEndpoint({ ...endpoint, secret: 'whsec_abc' })).toEqual({ endpoint, secret: 'whsec_abc' });
  });
});

describe('readDeliveryPage', () => {
  it('reads a page with its cursor, or a bare list as the only page', () => {
    const one = delivery({});
    expect(readDeliveryPage({ deliveries: [one], nextCursor: 'c2' })).toEqual({ deliveries: [one], nextCursor: 'c2' });
    expect(readDeliveryPage([one])).toEqual({ deliveries: [one], nextCursor: null });
    expect(readDeliveryPage(null)).toEqual({ deliveries: [], nextCursor: null });
  });
});
