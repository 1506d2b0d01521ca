// The webhook-dispatch reactor and the webhook endpoints it reads, against the real Postgres: one
// delivery per subscribed, active endpoint per event, with the Standard Webhooks body and a message
// id stable across retries; consent.withdrawn only when a choice takes identification away from a
// visitor who had it; nothing about visitors who never allowed identification; nothing twice when
// applied again or replayed; and no history for an endpoint added later.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream, readCommittedEvents, startOfLog, type NewEvent } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import type { WebhookEventType } from '@consentry/events';
import { appendLog, at, catchUp, leadVisitor, type LogEntry } from '../leads/testing';
import { replayProjection } from '../runtime/replay';
import { webhookEndpointsProjection } from '../webhook-endpoints/projection';
import { buildWebhookPayload, consentReceiptPath } from './payload';
import { webhookDispatchProjection } from './projection';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('webhook_dispatch');
});
afterAll(async () => {
  await db?.drop();
});

async function addEndpoint(websiteId: string, eventTypes: WebhookEventType[], addedAt = new Date(Date.now() - 60_000).toISOString()): Promise<string> {
  const endpointId = randomUUID();
  await appendToStream(
    db.pool,
    `webhooks-${websiteId}`,
    [{ type: 'WebhookEndpointAdded', data: { websiteId, endpointId, url: `https://hooks.example.com/${endpointId}`, description: 'CRM', eventTypes, addedBy: 'owner', addedAt } }],
    { inlineProjections: [webhookEndpointsProjection] },
  );
  return endpointId;
}

async function removeEndpoint(websiteId: string, endpointId: string): Promise<void> {
  const removal: NewEvent = { type: 'WebhookEndpointRemoved', data: { websiteId, endpointId, removedBy: 'owner', removedAt: new Date().toISOString() } };
  await appendToStream(db.pool, `webhooks-${websiteId}`, [removal], { inlineProjections: [webhookEndpointsProjection] });
}

interface DeliveryRow {
  endpoint_id: string;
  source_event_id: string;
  message_id: string;
  event_type: string;
  payload: Record<string, unknown>;
  status: string;
  visitor_id: string;
}

const deliveries = async (): Promise<DeliveryRow[]> =>
  (
    await db.pool.query<DeliveryRow>(
      `SELECT delivery.* FROM webhook_deliveries AS delivery JOIN events AS source ON source.event_id = delivery.source_event_id
        ORDER BY delivery.endpoint_id, source.position`,
    )
  ).rows;

describe('when a lead is identified, enriched, withdraws and comes back', () => {
  const websiteId = randomUUID();
  const otherWebsite = randomUUID();
  const t0 = '2026-05-04T08:00:00.000Z';
  const ada = leadVisitor(websiteId);
  const bob = leadVisitor(websiteId); // never allows identification
  let everything: string;
  let withdrawals: string;
  let removed: string;
  let elsewhere: string;
  let log: Record<string, LogEntry>;

  beforeAll(async () => {
    everything = await addEndpoint(websiteId, ['lead.identified', 'lead.enriched', 'consent.withdrawn']);
    withdrawals = await addEndpoint(websiteId, ['consent.withdrawn']);
    removed = await addEndpoint(websiteId, ['lead.identified', 'lead.enriched', 'consent.withdrawn']);
    await removeEndpoint(websiteId, removed);
    elsewhere = await addEndpoint(otherWebsite, ['lead.identified', 'lead.enriched', 'consent.withdrawn']);
    const allow = ada.allow(t0);
    log = {
      allow,
      identify: ada.identify(at(t0, 1), { email: 'ada@example.com', name: 'Ada Lovelace', company: 'Analytical Engines' }),
      enrich: ada.enrich(at(t0, 2), { title: 'CTO', company: 'Analytical Engines plc', domain: 'example.com' }, { provider: 'hunter' }),
      refuse: ada.refuse(at(t0, 3)),
      declineAgain: ada.decline(at(t0, 4)),
      identifyWithdrawn: ada.identify(at(t0, 5), { email: 'ada@withdrawn.example' }),
      allowAgain: ada.allow(at(t0, 6)),
      enrichAgain: ada.enrich(at(t0, 7), { title: 'CEO' }),
      declineLast: ada.decline(at(t0, 8)),
    };
    await appendLog(db.pool, [
      ...Object.values(log),
      bob.refuse(t0),
      bob.identify(at(t0, 1), { email: 'bob@never.example' }),
      bob.decline(at(t0, 2)),
    ]);
    await catchUp(db.pool, webhookDispatchProjection, 4);
  });

  it('keeps the endpoints inline, a removed one with its removal time', async () => {
    const { rows } = await db.pool.query('SELECT endpoint_id, website_id, event_types, removed_at FROM webhook_endpoints ORDER BY added_at, endpoint_id');
    expect(rows).toHaveLength(4);
    expect(rows.find((row) => row.endpoint_id === removed)?.removed_at).toBeInstanceOf(Date);
    expect(rows.find((row) => row.endpoint_id === withdrawals)).toMatchObject({ website_id: websiteId, event_types: ['consent.withdrawn'], removed_at: null });
  });

  it('queues each message for the endpoints subscribed to it, with a message id from its event', async () => {
    const all = await deliveries();
    const of = (endpointId: string) => all.filter((row) => row.endpoint_id === endpointId).map((row) => [row.event_type, row.source_event_id]);
    expect(of(everything)).toEqual([
      ['lead.identified', log['identify']!.eventId],
      ['lead.enriched', log['enrich']!.eventId],
      ['consent.withdrawn', log['refuse']!.eventId],
      ['lead.enriched', log['enrichAgain']!.eventId],
      ['consent.withdrawn', log['declineLast']!.eventId],
    ]);
    expect(of(withdrawals)).toEqual([
      ['consent.withdrawn', log['refuse']!.eventId],
      ['consent.withdrawn', log['declineLast']!.eventId],
    ]);
    expect(of(removed)).toEqual([]);
    expect(of(elsewhere)).toEqual([]);
    for (const row of all) {
      expect(row.message_id).toBe(`msg_${row.source_event_id}`);
      expect(row.status).toBe('queued');
      expect(row.visitor_id).toBe(ada.visitorId);
    }
  });

  it('sends the Standard Webhooks body: who the lead is, what happened, and the consent proof', async () => {
    const all = await deliveries();
    const payloadOf = (eventId: string) => all.find((row) => row.endpoint_id === everything && row.source_event_id === eventId)!.payload;
    const identity = { email: 'ada@example.com', name: 'Ada Lovelace', company: 'Analytical Engines' };
    expect(payloadOf(log['identify']!.eventId)).toEqual({
      type: 'lead.identified',
      timestamp: at(t0, 1),
      data: {
        websiteId,
        visitorId: ada.visitorId,
        ...identity,
        source: 'form',
        pageUrl: 'https://www.shop.example.com/contact',
        identifiedAt: at(t0, 1),
        consentEventId: log['allow']!.eventId,
        receiptUrl: `/api/consents/${log['allow']!.eventId}/receipt`,
      },
    });
    expect(payloadOf(log['enrich']!.eventId)).toEqual({
      type: 'lead.enriched',
      timestamp: at(t0, 2),
      data: {
        websiteId,
        visitorId: ada.visitorId,
        ...identity,
        enrichment: { provider: 'hunter', name: null, title: 'CTO', company: 'Analytical Engines plc', domain: 'example.com', industry: null, size: null, linkedinUrl: null, location: null },
        enrichedAt: at(t0, 2),
        consentEventId: log['allow']!.eventId,
        receiptUrl: consentReceiptPath(log['allow']!.eventId),
      },
    });
    expect(payloadOf(log['refuse']!.eventId)).toEqual(
      buildWebhookPayload({
        type: 'consent.withdrawn',
        websiteId,
        visitorId: ada.visitorId,
        at: at(t0, 3),
        identity,
        consentEventId: log['refuse']!.eventId,
        method: 'custom',
        granted: ['analytics'],
      }),
    );
    // Withdrawn, the visitor was forgotten here: after the new grant nobody has said who they are.
    expect((payloadOf(log['declineLast']!.eventId)['data'] as Record<string, unknown>)).toMatchObject({
      email: null,
      name: null,
      company: null,
      consentEventId: log['declineLast']!.eventId,
      method: 'reject_all',
      granted: [],
    });
    expect((payloadOf(log['enrichAgain']!.eventId)['data'] as Record<string, unknown>)['consentEventId']).toBe(log['allowAgain']!.eventId);
  });

  it('sends nothing about a visitor who never allowed identification, nor twice for one withdrawal', async () => {
    const all = await deliveries();
    expect(all.filter((row) => row.visitor_id === bob.visitorId)).toEqual([]);
    expect(all.some((row) => row.source_event_id === log['declineAgain']!.eventId || row.source_event_id === log['identifyWithdrawn']!.eventId)).toBe(false);
    expect(JSON.stringify(all)).not.toContain('withdrawn.example');
  });

  it('queues nothing twice when applied again or replayed, and no history for an endpoint added later', async () => {
    const before = await deliveries();
    const events = await readCommittedEvents(db.pool, startOfLog, { limit: 1000, types: webhookDispatchProjection.canHandle });
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await webhookDispatchProjection.apply(events, client);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const late = await addEndpoint(websiteId, ['lead.identified', 'lead.enriched', 'consent.withdrawn'], new Date(Date.now() + 1_000).toISOString());
    await replayProjection(db.pool, webhookDispatchProjection);
    expect(await deliveries()).toEqual(before);
    expect(before.some((row) => row.endpoint_id === late)).toBe(false);
  });
});
