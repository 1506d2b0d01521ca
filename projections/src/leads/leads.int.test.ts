// The leads projection against the real Postgres: a small log gives exactly the leads, timelines,
// resolutions and daily counts docs/identification.md defines; a mixed log (version 1 and 2 choices,
// withdrawals, re-grants, identifications, company matches, enrichment, page views) builds the same
// read model live in batches of any size, redelivered, and replayed; a visitor who never allowed
// identification leaves no email in any table; and a retention purge or an erasure leaves the read
// model a replay of the remaining log would build.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasableFields, identificationErasableFields } from '@consentry/events';
import {
  appendToStream,
  eventColumns,
  readCommittedEvents,
  startOfLog,
  toStoredEvent,
  type Checkpoint,
  type Db,
  type EventRow,
  type StoredEvent,
} from '@consentry/infra';
import { createTestDatabase, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { consentRecordsProjection } from '../consent-records/projection';
import { enrichmentQueueProjection } from '../enrichment-queue/projection';
import { checkpointNameOf, resetReadModel, type Projection } from '../projection';
import { applyProjectionBatch } from '../runtime/projector';
import { replayProjection } from '../runtime/replay';
import { webhookDispatchProjection } from '../webhook-dispatch/projection';
import { webhookEndpointsProjection } from '../webhook-endpoints/projection';
import { leadsProjection, leadsTables } from './projection';
import { appendLog, at, leadVisitor, tablesHolding, type LeadVisitor, type LogEntry } from './testing';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('leads', { poolSize: 6 });
});
afterAll(async () => {
  await db?.drop();
});

const orderOf: Record<string, string> = {
  leads: 'website_id, visitor_id',
  lead_timeline: 'website_id, visitor_id, position',
  lead_resolutions: 'website_id, month, visitor_id',
  lead_daily: 'website_id, day',
  consent_records: 'event_id',
  enrichment_queue_visitors: 'website_id, visitor_id',
  webhook_dispatch_visitors: 'website_id, visitor_id',
};

async function snapshot(pool: Db, tables: readonly string[]): Promise<Record<string, unknown[]>> {
  const model: Record<string, unknown[]> = {};
  for (const table of tables) model[table] = (await pool.query(`SELECT * FROM ${table} ORDER BY ${orderOf[table]}`)).rows;
  return model;
}

async function resetProjection(projection: Projection): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await resetReadModel(projection, client);
    await client.query('DELETE FROM checkpoints WHERE name = $1', [checkpointNameOf(projection)]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

/** Applies the log the way the projector does, `batchSize` events per transaction, from an empty read model. */
async function applyLive(projection: Projection, batchSize: number): Promise<void> {
  await resetProjection(projection);
  const client = await db.pool.connect();
  try {
    let checkpoint: Checkpoint = startOfLog;
    for (;;) {
      const events = await readCommittedEvents(client, checkpoint, { limit: batchSize, types: projection.canHandle });
      if (events.length === 0) break;
      await applyProjectionBatch(client, projection, events);
      const last = events.at(-1)!;
      checkpoint = { transactionId: last.transactionId, position: last.position };
    }
  } finally {
    client.release();
  }
}

const leadOf = async (websiteId: string, visitorId: string) =>
  (await db.pool.query('SELECT * FROM leads WHERE website_id = $1 AND visitor_id = $2', [websiteId, visitorId])).rows[0];
const timelineOf = async (websiteId: string, visitorId: string) =>
  (
    await db.pool.query<{ kind: string; at: Date; detail: Record<string, unknown> }>(
      'SELECT kind, at, detail FROM lead_timeline WHERE website_id = $1 AND visitor_id = $2 ORDER BY position',
      [websiteId, visitorId],
    )
  ).rows;

describe('when visitors allow identification, identify themselves, withdraw and come back', () => {
  const websiteId = randomUUID();
  const t0 = '2026-01-20T10:00:00.000Z';
  const ada = leadVisitor(websiteId);
  const bob = leadVisitor(websiteId); // a custom choice without identification
  const carol = leadVisitor(websiteId); // withdraws, comes back
  const dora = leadVisitor(websiteId); // identified, then declines everything
  const eve = leadVisitor(websiteId); // known by her network first, across a month boundary
  const frank = leadVisitor(websiteId); // a US opt-out default that grants everything
  const gil = leadVisitor(websiteId); // a version 1 acceptance

  beforeAll(async () => {
    const entries: LogEntry[] = [];
    const push = (...more: LogEntry[]) => entries.push(...more);
    push(ada.allow(t0));
    const home = ada.view('/', at(t0, 1));
    push(home, ada.hide(home.pageviewId, 10_000, at(t0, 2)), ada.hide(home.pageviewId, 25_000, at(t0, 3)));
    push(ada.engage(home.pageviewId, 'contact_form_submit', at(t0, 3)), ada.hide(home.pageviewId, 20_000, at(t0, 3.5)));
    push(ada.identify(at(t0, 4), { email: 'ada@example.com', name: 'Ada Lovelace', company: 'Analytical Engines' }));
    push(ada.matchCompany(at(t0, 4), { asn: 64500, organisation: 'Analytical Engines Ltd' }));
    push(ada.enrich(at(t0, 30), { name: 'Ada Lovelace', title: 'CTO', company: 'Analytical Engines plc', domain: 'example.com' }));

    push(bob.choose(at(t0, 5), { method: 'custom', granted: ['analytics'] }), bob.view('/', at(t0, 5)));
    push(bob.identify(at(t0, 6), { email: 'bob@never-allowed.example', name: 'Bob Secret' }));

    push(carol.allow(at(t0, 10)), carol.view('/a', at(t0, 11)), carol.refuse(at(t0, 12)), carol.view('/b', at(t0, 13)));
    push(carol.identify(at(t0, 14), { email: 'carol@while-withdrawn.example' }));
    push(carol.allow(at(t0, 20)), carol.identify(at(t0, 21), { email: 'carol@example.org', source: 'call', pageUrl: null }));

    push(ada.view('/pricing', at(t0, 40)));

    push(dora.allow(at(t0, 60)), dora.identify(at(t0, 61), { email: 'dora@example.net' }), dora.decline(at(t0, 62)));
    push(dora.identify(at(t0, 63), { email: 'dora@after-withdrawal.example' }), dora.failEnrichment(at(t0, 64), 'withdrawn'));

    push(frank.choose(at(t0, 70), { method: 'jurisdiction_default', granted: ['preferences', 'analytics', 'marketing', 'identification'] }));
    push(frank.identify(at(t0, 71), { email: 'frank@opt-out.example' }));
    push(gil.legacy(at(t0, 72), true), gil.view('/', at(t0, 73)));

    push(eve.allow('2026-01-31T23:50:00.000Z'), eve.matchCompany('2026-01-31T23:55:00.000Z', { asn: 64501, organisation: 'Eve Corp' }));
    push(eve.matchCompany('2026-02-01T00:05:00.000Z', { asn: 64501, organisation: 'Eve Corp' }));
    push(eve.identify('2026-02-01T00:10:00.000Z', { email: 'eve@evecorp.example' }));
    push(eve.matchCompany('2026-03-01T09:00:00.000Z', { asn: 64501, organisation: 'Eve Corp' }));
    push(eve.identify('2026-03-02T09:00:00.000Z', { email: 'eve@evecorp.example', name: 'Eve' }));
    await appendLog(db.pool, entries);
    await waitForLogVisible(db.pool);
    await replayProjection(db.pool, leadsProjection);
  });

  it('keeps a lead with identity, company, enrichment, pages and time on page', async () => {
    expect(await leadOf(websiteId, ada.visitorId)).toMatchObject({
      consent_status: 'granted',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      company: 'Analytical Engines',
      identification_source: 'form',
      identified_at: new Date(at(t0, 4)),
      network_asn: 64500,
      network_organisation: 'Analytical Engines Ltd',
      enrichment_status: 'enriched',
      enrichment_provider: 'loopback',
      enrichment: expect.objectContaining({ title: 'CTO', company: 'Analytical Engines plc' }),
      display_company: 'Analytical Engines plc',
      search_text: 'ada@example.com ada lovelace analytical engines plc',
      first_seen: new Date(t0),
      last_seen: new Date(at(t0, 40)),
      pages_viewed: 2,
      engaged_ms: 25_000,
    });
    const timeline = await timelineOf(websiteId, ada.visitorId);
    expect(timeline.map((entry) => entry.kind)).toEqual(['consent', 'page_view', 'identified', 'company_matched', 'enriched', 'page_view']);
    expect(timeline[0]!.detail).toEqual({ method: 'accept_all', granted: ['preferences', 'analytics', 'marketing', 'identification'], eventId: expect.any(String) });
    expect(timeline[1]!.detail).toEqual({ url: 'https://www.shop.example.com/', title: 'Home', visibleMs: 25_000, actions: ['contact_form_submit'] });
    expect(timeline[2]!.detail).toEqual({ source: 'form', pageUrl: 'https://www.shop.example.com/contact' });
    expect(timeline[3]!.detail).toEqual({ organisation: 'Analytical Engines Ltd' });
    expect(timeline[4]!.detail).toEqual({ provider: 'loopback' });
    expect(timeline[5]!.detail).toEqual({ url: 'https://www.shop.example.com/pricing', visibleMs: 0 });
  });

  it('has no row for visitors who never allowed identification, and keeps none of what they sent', async () => {
    for (const visitor of [bob, frank, gil]) expect(await leadOf(websiteId, visitor.visitorId), visitor.visitorId).toBeUndefined();
    for (const email of ['bob@never-allowed.example', 'frank@opt-out.example', 'carol@while-withdrawn.example', 'dora@after-withdrawal.example']) {
      expect(await tablesHolding(db.pool, email), email).toEqual({});
    }
  });

  it('counts only the page views made while identification was allowed, and ignores identification while withdrawn', async () => {
    expect(await leadOf(websiteId, carol.visitorId)).toMatchObject({
      consent_status: 'granted',
      email: 'carol@example.org',
      identification_source: 'call',
      identified_at: new Date(at(t0, 21)),
      first_seen: new Date(at(t0, 10)),
      pages_viewed: 1,
    });
    expect((await timelineOf(websiteId, carol.visitorId)).map((entry) => entry.kind)).toEqual(['consent', 'page_view', 'consent', 'consent', 'identified']);
  });

  it('marks a lead withdrawn, keeps it out of reach of later identification, and records the failed enrichment', async () => {
    expect(await leadOf(websiteId, dora.visitorId)).toMatchObject({
      consent_status: 'withdrawn',
      email: 'dora@example.net',
      enrichment_status: 'failed',
      consent_changed_at: new Date(at(t0, 62)),
      consent_event_id: expect.any(String),
    });
    const timeline = await timelineOf(websiteId, dora.visitorId);
    expect(timeline.map((entry) => entry.kind)).toEqual(['consent', 'identified', 'consent', 'enrichment_failed']);
    expect(timeline[2]!.detail).toMatchObject({ method: 'reject_all', granted: [] });
    expect(timeline[3]!.detail).toEqual({ reason: 'withdrawn' });
  });

  it('counts a resolution per visitor and UTC month, the network identifying only until the visitor says who they are', async () => {
    expect(await leadOf(websiteId, eve.visitorId)).toMatchObject({
      identification_source: 'network',
      identified_at: new Date('2026-01-31T23:55:00.000Z'),
      email: 'eve@evecorp.example',
      name: 'Eve',
      display_company: 'Eve Corp',
    });
    const { rows } = await db.pool.query<{ month: string; visitors: number }>(
      `SELECT to_char(month, 'YYYY-MM-DD') AS month, count(*)::int AS visitors FROM lead_resolutions WHERE website_id = $1 GROUP BY month ORDER BY month`,
      [websiteId],
    );
    // January: Ada, Carol, Dora and Eve (by her network); February: Eve again (network, then her
    // form, counted once); March: Eve's form only (her network no longer identifies her).
    expect(rows).toEqual([
      { month: '2026-01-01', visitors: 4 },
      { month: '2026-02-01', visitors: 1 },
      { month: '2026-03-01', visitors: 1 },
    ]);
    const { rows: resolved } = await db.pool.query<{ resolved_at: Date }>(
      `SELECT resolved_at FROM lead_resolutions WHERE website_id = $1 AND visitor_id = $2 ORDER BY month`,
      [websiteId, eve.visitorId],
    );
    expect(resolved.map((row) => row.resolved_at.toISOString())).toEqual(['2026-01-31T23:55:00.000Z', '2026-02-01T00:05:00.000Z', '2026-03-02T09:00:00.000Z']);
  });

  it('counts per day the visitors who first allowed identification and those first identified', async () => {
    const { rows } = await db.pool.query(`SELECT to_char(day, 'YYYY-MM-DD') AS day, allowed, identified FROM lead_daily WHERE website_id = $1 ORDER BY day`, [
      websiteId,
    ]);
    // Carol allowed twice but first on the 20th; Eve was identified on the 31st by her network.
    expect(rows).toEqual([
      { day: '2026-01-20', allowed: 3, identified: 3 },
      { day: '2026-01-31', allowed: 1, identified: 1 },
    ]);
  });

  it('builds the same read model applied live in batches of 1, 3 and 17 events', async () => {
    const replayed = await snapshot(db.pool, leadsTables);
    for (const batchSize of [1, 3, 17]) {
      await applyLive(leadsProjection, batchSize);
      expect(await snapshot(db.pool, leadsTables), `batches of ${batchSize}`).toEqual(replayed);
    }
  });
});

/** A seeded mixed log: two websites, 48 visitors, 1,500 events over about ten days across a month boundary. */
function mixedLog(websites: readonly string[]): { entries: LogEntry[]; visitors: LeadVisitor[]; neverAllowing: Set<string> } {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const visitors = Array.from({ length: 48 }, (_, index) => leadVisitor(websites[index % websites.length]!));
  // Every sixth visitor never allows identification, whatever they choose.
  const neverAllowing = new Set(visitors.filter((_, index) => index % 6 === 0).map((visitor) => visitor.visitorId));
  const pages = new Map<string, string[]>();
  const entries: LogEntry[] = [];
  let minutes = 0;
  for (let i = 0; i < 1_500; i++) {
    minutes += random() * 20;
    const time = at('2026-01-25T00:00:00.000Z', minutes);
    const index = Math.floor(random() * visitors.length);
    const visitor = visitors[index]!;
    const never = neverAllowing.has(visitor.visitorId);
    const seen = pages.get(visitor.visitorId) ?? [];
    const roll = random();
    if (roll < 0.14 || visitor.lastChoiceId === null) {
      const choice = random();
      if (choice < 0.1) entries.push(visitor.legacy(time, random() < 0.5));
      else if (choice < 0.2) entries.push(visitor.choose(time, { method: 'jurisdiction_default', granted: ['analytics', 'identification'] }));
      else if (choice < 0.35) entries.push(visitor.decline(time));
      else if (choice < 0.5) entries.push(visitor.refuse(time));
      else if (choice < 0.6) entries.push(visitor.choose(time, { method: 'accept_all', granted: ['analytics', 'marketing'], offered: ['analytics', 'marketing'] }));
      else if (never) entries.push(visitor.refuse(time));
      else if (choice < 0.8) entries.push(visitor.allow(time));
      else entries.push(visitor.choose(time, { method: 'custom', granted: ['identification'] }));
    } else if (roll < 0.55 || seen.length === 0) {
      const view = visitor.view(`/p${Math.floor(random() * 12)}`, time);
      seen.push(view.pageviewId);
      pages.set(visitor.visitorId, seen);
      entries.push(view);
    } else if (roll < 0.7) {
      entries.push(visitor.hide(pick(seen), Math.floor(random() * 200_000), time));
    } else if (roll < 0.75) {
      entries.push(visitor.engage(pick(seen), pick(['tap_to_call', 'contact_form_submit', 'location_map_view', 'opening_hours_view'] as const), time));
    } else if (roll < 0.84) {
      const domain = never ? 'never-allowed.example' : pick(['gmail.com', 'acme.example', 'globex.example']);
      entries.push(
        visitor.identify(time, {
          email: `v${index}-${i}@${domain}`,
          name: random() < 0.5 ? `Visitor ${index}` : null,
          company: random() < 0.3 ? `Company ${index}` : null,
          source: random() < 0.8 ? 'form' : 'call',
        }),
      );
    } else if (roll < 0.9) {
      entries.push(visitor.matchCompany(time, { asn: 64_500 + (index % 7), organisation: never ? `Never Allowed Org ${index}` : `Org ${index % 7}` }));
    } else if (roll < 0.96) {
      entries.push(visitor.enrich(time, { title: 'Buyer', company: random() < 0.5 ? `Enriched ${index}` : null }));
    } else {
      entries.push(visitor.failEnrichment(time, pick(['not_found', 'deadline', 'rejected', 'withdrawn'] as const)));
    }
  }
  return { entries, visitors, neverAllowing };
}

/** Time a purge reads from an event: when the server recorded it. */
const timeOf = (event: StoredEvent): string => {
  const data = event.data as Record<string, unknown>;
  return (data['receivedAt'] ?? data['matchedAt'] ?? data['enrichedAt'] ?? data['failedAt']) as string;
};

describe('when a mixed log of two websites is applied in different ways', () => {
  const websites = [randomUUID(), randomUUID()] as const;
  const projections = [leadsProjection, consentRecordsProjection, enrichmentQueueProjection, webhookDispatchProjection];
  const tables = [...leadsTables, 'consent_records', 'enrichment_queue_visitors', 'webhook_dispatch_visitors'];
  let log: ReturnType<typeof mixedLog>;
  let replayed: Record<string, unknown[]>;

  beforeAll(async () => {
    for (const websiteId of websites) {
      await appendToStream(
        db.pool,
        `webhooks-${websiteId}`,
        [
          {
            type: 'WebhookEndpointAdded',
            data: {
              websiteId,
              endpointId: randomUUID(),
              url: 'https://hooks.example.com/in',
              description: 'CRM',
              eventTypes: ['lead.identified', 'lead.enriched', 'consent.withdrawn'],
              addedBy: 'owner',
              addedAt: new Date(Date.now() - 60_000).toISOString(),
            },
          },
        ],
        { inlineProjections: [webhookEndpointsProjection] },
      );
    }
    log = mixedLog(websites);
    await appendLog(db.pool, log.entries);
    await waitForLogVisible(db.pool);
    for (const projection of projections) await replayProjection(db.pool, projection);
    replayed = await snapshot(db.pool, tables);
  });

  it('has leads of both websites, some withdrawn, some identified in each month', async () => {
    const { rows } = await db.pool.query<{ status: string; identified: boolean; n: number }>(
      `SELECT consent_status AS status, identified_at IS NOT NULL AS identified, count(*)::int AS n FROM leads
        WHERE website_id = ANY($1::uuid[]) GROUP BY 1, 2 ORDER BY 1, 2`,
      [websites],
    );
    expect(rows.filter((row) => row.identified).map((row) => row.status)).toEqual(['granted', 'withdrawn']);
    const { rows: months } = await db.pool.query<{ month: string }>(
      `SELECT DISTINCT to_char(month, 'YYYY-MM') AS month FROM lead_resolutions WHERE website_id = ANY($1::uuid[]) ORDER BY 1`,
      [websites],
    );
    expect(months.map((row) => row.month)).toEqual(['2026-01', '2026-02']);
    const { rows: pages } = await db.pool.query<{ pages: number; engaged: number }>(
      `SELECT sum(pages_viewed)::int AS pages, sum(engaged_ms)::int8 AS engaged FROM leads WHERE website_id = ANY($1::uuid[])`,
      [websites],
    );
    expect(pages[0]!.pages).toBeGreaterThan(0);
    expect(pages[0]!.engaged).toBeGreaterThan(0);
  });

  it('keeps no email, name or organisation of a visitor who never allowed identification in any table', async () => {
    expect(await tablesHolding(db.pool, 'never-allowed.example')).toEqual({});
    expect(await tablesHolding(db.pool, 'Never Allowed Org')).toEqual({});
    for (const visitorId of log.neverAllowing) {
      const { rows } = await db.pool.query('SELECT 1 FROM leads WHERE visitor_id = $1', [visitorId]);
      expect(rows).toEqual([]);
    }
  });

  it('builds the same read model applied live in batches of 3 and 250 events', async () => {
    for (const batchSize of [3, 250]) {
      for (const projection of projections) await applyLive(projection, batchSize);
      expect(await snapshot(db.pool, tables), `batches of ${batchSize}`).toEqual(replayed);
    }
  });

  it('counts nothing twice when batches are delivered again, whole or overlapping', async () => {
    const client = await db.pool.connect();
    try {
      const events = await readCommittedEvents(client, startOfLog, { limit: 10_000, types: leadsProjection.canHandle });
      await resetProjection(leadsProjection);
      // Overlapping windows, as a bus redelivering a partly acknowledged batch sends them.
      for (let start = 0; start < events.length; start += 60) {
        const outcome = await applyProjectionBatch(client, leadsProjection, events.slice(Math.max(0, start - 25), start + 60));
        expect(outcome?.applied.length ?? 0).toBeLessThanOrEqual(60);
      }
      expect(await snapshot(db.pool, leadsTables)).toEqual(Object.fromEntries(leadsTables.map((table) => [table, replayed[table]])));
      // Everything again: at or before the checkpoint, skipped.
      expect(await applyProjectionBatch(client, leadsProjection, events)).toBeNull();
      expect(await snapshot(db.pool, leadsTables)).toEqual(Object.fromEntries(leadsTables.map((table) => [table, replayed[table]])));
    } finally {
      client.release();
    }
  });

  it('a retention purge of one website leaves the read model a replay of the remaining log builds', async () => {
    const [purgedSite] = websites;
    const cutoff = '2026-02-01T12:00:00.000Z';
    const types = [...new Set(projections.flatMap((projection) => projection.canHandle))];
    const { rows } = await db.pool.query<EventRow>({
      text: `SELECT ${eventColumns} FROM events WHERE type = ANY($1::text[]) AND data->>'websiteId' = $2 ORDER BY position`,
      values: [types, purgedSite],
    });
    const removed = rows.map(toStoredEvent).filter((event) => Date.parse(timeOf(event)) < Date.parse(cutoff));
    expect(removed.length).toBeGreaterThan(100);
    // As the purge job does: batches in log order, each deleting its events and calling the hooks.
    for (let offset = 0; offset < removed.length; offset += 150) {
      const batch = removed.slice(offset, offset + 150);
      const client = await db.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SET LOCAL consentry.maintenance = purge');
        await client.query('DELETE FROM events WHERE position = ANY($1::int8[])', [batch.map((event) => event.position)]);
        const purgeEventId = randomUUID();
        for (const projection of projections) {
          await projection.purged?.(batch.filter((event) => projection.canHandle.includes(event.type)), purgeEventId, client);
        }
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }
    const afterPurge = await snapshot(db.pool, tables);
    const { rows: early } = await db.pool.query(`SELECT 1 FROM lead_daily WHERE website_id = $1 AND day < '2026-02-01'`, [purgedSite]);
    expect(early).toEqual([]);
    for (const projection of projections) await replayProjection(db.pool, projection);
    expect(await snapshot(db.pool, tables)).toEqual(afterPurge);
    // The other website is untouched.
    const { rows: other } = await db.pool.query('SELECT count(*)::int AS n FROM leads WHERE website_id = $1', [websites[1]]);
    expect(other[0].n).toBe(replayed['leads']!.filter((row) => (row as { website_id: string }).website_id === websites[1]).length);
  });

  it('an erasure of identified visitors takes their identity from every row and leaves what a replay builds', async () => {
    const { rows: subjects } = await db.pool.query<{ website_id: string; visitor_id: string; email: string }>(
      `SELECT website_id, visitor_id, email FROM leads WHERE website_id = $1 AND email IS NOT NULL ORDER BY visitor_id LIMIT 3`,
      [websites[1]],
    );
    expect(subjects).toHaveLength(3);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL consentry.maintenance = erasure');
      const nulled: Record<string, readonly string[]> = {
        ConsentGiven: erasableFields,
        ConsentDeclined: erasableFields,
        ...identificationErasableFields,
      };
      const updated: StoredEvent[] = [];
      for (const [type, fields] of Object.entries(nulled)) {
        const { rows } = await client.query<EventRow>({
          text: `UPDATE events SET data = data || $3::jsonb
                  WHERE type = $1 AND data->>'websiteId' = $2 AND data->>'visitorId' = ANY($4::text[])
              RETURNING ${eventColumns}`,
          values: [type, websites[1], JSON.stringify(Object.fromEntries(fields.map((field) => [field, null]))), subjects.map((row) => row.visitor_id)],
        });
        updated.push(...rows.map(toStoredEvent));
      }
      updated.sort((a, b) => a.position - b.position);
      for (const projection of projections) {
        await projection.rewritten?.(updated.filter((event) => projection.canHandle.includes(event.type)), client);
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const afterErasure = await snapshot(db.pool, tables);
    for (const { email } of subjects) {
      // The queues are emptied by the erasure job itself (services/jobs), not by these projections.
      expect(await tablesHolding(db.pool, email, ['events', 'enrichment_jobs', 'webhook_deliveries']), email).toEqual({});
    }
    for (const { website_id, visitor_id } of subjects) {
      expect(await leadOf(website_id, visitor_id)).toMatchObject({ email: null, name: null, company: null });
    }
    for (const projection of projections) await replayProjection(db.pool, projection);
    expect(await snapshot(db.pool, tables)).toEqual(afterErasure);
  });
});
