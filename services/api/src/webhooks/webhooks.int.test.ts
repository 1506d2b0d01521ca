// Webhook endpoints through app.inject() on a real database: adding one records the event and its
// signing secret in one transaction and shows the secret once (never in a list, the log or a log
// line); addresses that would reach private networks are refused; ten per website at most; removal;
// the delivery log with every try; and "Send again". Another owner's website, endpoint or delivery
// answers 404.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { saveAdmin } from '../auth/admins';
import { createPasswordHasher } from '../auth/passwords';
import { addWebsiteAs, buildTestApi, registerOwner, signInAdmin, type Client, type SignedInUser, type TestApi } from '../testing/api-app';
import type { HostLookup } from '@consentry/infra';

let db: TestDatabase;
let api: TestApi;
let admin: Client;
let owner: SignedInUser;
let stranger: SignedInUser;
let shop: { id: string };
let foreign: { id: string };

// DNS as these tests see it.
const addresses: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'crm.example.org': ['2606:2800:220:1:248:1893:25c8:1946'],
  'intranet.example.com': ['10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  // One public and one loopback answer: refused (the request could go to either).
  'split.example.com': ['93.184.216.34', '127.0.0.1'],
  'receiver.internal.test': ['127.0.0.1'],
};
const lookup: HostLookup = async (hostname) =>
  (addresses[hostname] ?? []).map((address) => ({
    address,
    family: address.includes(':') ? 6 : 4,
  }));

const endpointsUrl = (websiteId: string) => `/api/websites/${websiteId}/webhooks`;
const add = (client: Client, websiteId: string, payload: Record<string, unknown>) => client.request({ method: 'POST', url: endpointsUrl(websiteId), payload });

beforeAll(async () => {
  db = await createTestDatabase('api_webhooks', { poolSize: 8 });
  api = await buildTestApi(db.pool, {
    webhookUrls: { allowHosts: ['receiver.internal.test'], lookup },
  });
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  admin = await signInAdmin(api.app, 'root', 'admin password 1');
  owner = await registerOwner(api.app);
  stranger = await registerOwner(api.app);
  shop = await addWebsiteAs(owner, 'Shop', 'shop.example.com');
  foreign = await addWebsiteAs(stranger, 'Their shop', 'their.example.com');
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

describe('adding a webhook endpoint', () => {
  it('records it, keeps its secret apart, and shows the secret once: in the answer that created it', async () => {
    const response = await add(owner, shop.id, {
      url: 'https://hooks.example.com/consentry?token=abc',
      description: '  CRM  ',
      eventTypes: ['lead.identified', 'consent.withdrawn'],
    });
    expect(response.statusCode).toBe(201);
    const { endpoint, secret } = response.json();
    expect(endpoint).toEqual({
      id: expect.any(String),
      websiteId: shop.id,
      url: 'https://hooks.example.com/consentry?token=abc',
      description: 'CRM',
      eventTypes: ['lead.identified', 'consent.withdrawn'],
      addedAt: expect.any(String),
    });
    // Standard Webhooks: whsec_ and the base64 of 32 random bytes.
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const { rows: secrets } = await db.pool.query('SELECT secret FROM webhook_endpoint_secrets WHERE endpoint_id = $1', [endpoint.id]);
    expect(secrets).toEqual([{ secret }]);
    const { rows: events } = await db.pool.query('SELECT type, data, metadata FROM events WHERE stream_id = $1', [`webhooks-${shop.id}`]);
    expect(events.map((event) => event.type)).toEqual(['WebhookEndpointAdded']);
    expect(events[0].data).toMatchObject({
      endpointId: endpoint.id,
      addedBy: owner.id,
    });
    const { rows: anywhere } = await db.pool.query('SELECT count(*)::int AS count FROM events WHERE data::text LIKE $1 OR metadata::text LIKE $1', [
      `%${secret.slice(6, 30)}%`,
    ]);
    expect(anywhere).toEqual([{ count: 0 }]);

    const list = await owner.request({
      method: 'GET',
      url: endpointsUrl(shop.id),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([endpoint]);
    expect(list.body).not.toContain(secret.slice(6));
    expect(api.logs.join('\n')).not.toContain(secret.slice(6));
  });

  it('sends every event type when none are named; two endpoints get two different secrets', async () => {
    const first = await add(owner, shop.id, {
      url: 'https://crm.example.org/in',
    });
    const second = await add(owner, shop.id, {
      url: 'http://receiver.internal.test:8080/hook',
    });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(first.json().endpoint).toMatchObject({
      description: '',
      eventTypes: ['lead.identified', 'lead.enriched', 'consent.withdrawn'],
    });
    expect(first.json().secret).not.toBe(second.json().secret);
  });

  it.each(
    (
      [
        [{ url: 'ftp://hooks.example.com/in' }, 'INVALID_WEBHOOK_URL', 'https:// or http://'],
        [{ url: 'hooks.example.com/in' }, 'INVALID_WEBHOOK_URL', 'full address'],
        [{ url: 'https://user:pass@hooks.example.com/in' }, 'INVALID_WEBHOOK_URL', 'user name and password'],
        [{ url: 'https://token@hooks.example.com/in' }, 'INVALID_WEBHOOK_URL', 'user name and password'],
        [{ url: 'http://127.0.0.1:9000/in' }, 'INVALID_WEBHOOK_URL', 'private or reserved'],
        [{ url: 'http://[::1]/in' }, 'INVALID_WEBHOOK_URL', 'private or reserved'],
        [{ url: 'http://[::ffff:10.0.0.1]/in' }, 'INVALID_WEBHOOK_URL', 'private or reserved'],
        [{ url: 'https://intranet.example.com/in' }, 'INVALID_WEBHOOK_URL', 'private or reserved'],
        [{ url: 'https://metadata.example.com/latest' }, 'INVALID_WEBHOOK_URL', 'private or reserved'],
        [{ url: 'https://split.example.com/in' }, 'INVALID_WEBHOOK_URL', 'private or reserved'],
        [{ url: 'https://nowhere.example.com/in' }, 'INVALID_WEBHOOK_URL', 'could not be resolved'],
        [{ url: `https://hooks.example.com/${'a'.repeat(2100)}` }, 'INVALID_REQUEST', 'URL must be at most 2048 characters'],
        [{ url: '' }, 'INVALID_REQUEST', 'Enter the address'],
        [{ url: 'https://hooks.example.com/in', eventTypes: [] }, 'INVALID_REQUEST', 'at least one event'],
        [
          {
            url: 'https://hooks.example.com/in',
            eventTypes: ['lead.identified', 'lead.identified'],
          },
          'INVALID_REQUEST',
          'each event type once',
        ],
        [{ url: 'https://hooks.example.com/in', eventTypes: ['lead.deleted'] }, 'INVALID_REQUEST', 'Event types'],
        [{ url: 'https://hooks.example.com/in', description: 'x'.repeat(201) }, 'INVALID_REQUEST', 'Description must be at most 200 characters'],
        [{ url: 'https://hooks.example.com/in', secret: 'mine' }, 'INVALID_REQUEST', 'secret'],
      ] as const
    ).map(([payload, code, message]) => [JSON.stringify(payload).slice(0, 90), payload, code, message] as const),
  )('refuses %s with 400', async (_label, payload, code, message) => {
    const response = await add(owner, shop.id, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe(code);
    expect(response.json().error.message).toContain(message);
  });

  it("answers 404 for another owner's website, and adds nothing there", async () => {
    const response = await add(owner, foreign.id, {
      url: 'https://hooks.example.com/in',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('WEBSITE_NOT_FOUND');
    expect((await owner.request({ method: 'GET', url: endpointsUrl(foreign.id) })).statusCode).toBe(404);
    expect((await stranger.request({ method: 'GET', url: endpointsUrl(foreign.id) })).json()).toEqual([]);
    expect((await stranger.request({ method: 'GET', url: endpointsUrl(shop.id) })).statusCode).toBe(404);
  });

  it('an admin may add one to any website', async () => {
    const response = await add(admin, foreign.id, {
      url: 'https://hooks.example.com/admin',
    });
    expect(response.statusCode).toBe(201);
    const { rows } = await db.pool.query(`SELECT data->>'addedBy' AS added_by FROM events WHERE stream_id = $1`, [`webhooks-${foreign.id}`]);
    expect(rows).toEqual([{ added_by: 'root' }]);
  });
});

describe('at most ten endpoints per website', () => {
  it('refuses the eleventh with 409 until one is removed', async () => {
    const busyOwner = await registerOwner(api.app);
    const busy = await addWebsiteAs(busyOwner, 'Busy', 'busy.example.com');
    const ids: string[] = [];
    for (let index = 0; index < 10; index++) {
      const response = await add(busyOwner, busy.id, { url: `https://hooks.example.com/${index}` });
      expect(response.statusCode).toBe(201);
      ids.push(response.json().endpoint.id);
    }
    const refused = await add(busyOwner, busy.id, { url: 'https://hooks.example.com/eleventh' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: { code: 'WEBHOOK_LIMIT_REACHED', message: 'A website can have at most 10 webhook endpoints; remove one before adding another' },
    });
    expect((await busyOwner.request({ method: 'GET', url: endpointsUrl(busy.id) })).json()).toHaveLength(10);
    // The limit is per website: another website of someone else is not affected.
    expect((await add(owner, shop.id, { url: 'https://hooks.example.com/elsewhere' })).statusCode).toBe(201);

    expect((await busyOwner.request({ method: 'DELETE', url: `${endpointsUrl(busy.id)}/${ids[0]}` })).statusCode).toBe(204);
    expect((await add(busyOwner, busy.id, { url: 'https://hooks.example.com/eleventh' })).statusCode).toBe(201);
    expect((await add(busyOwner, busy.id, { url: 'https://hooks.example.com/twelfth' })).statusCode).toBe(409);
  });
});

describe('removing an endpoint', () => {
  it('records WebhookEndpointRemoved, drops it from the list; a second removal or a foreign one is 404', async () => {
    const created = (
      await add(owner, shop.id, {
        url: 'https://hooks.example.com/short-lived',
      })
    ).json();
    const url = `${endpointsUrl(shop.id)}/${created.endpoint.id}`;
    expect((await stranger.request({ method: 'DELETE', url })).statusCode).toBe(404);
    expect(
      (
        await owner.request({
          method: 'DELETE',
          url: `${endpointsUrl(foreign.id)}/${created.endpoint.id}`,
        })
      ).statusCode,
    ).toBe(404);

    const removed = await owner.request({ method: 'DELETE', url });
    expect(removed.statusCode).toBe(204);
    const list = (await owner.request({ method: 'GET', url: endpointsUrl(shop.id) })).json();
    expect(list.map((endpoint: { id: string }) => endpoint.id)).not.toContain(created.endpoint.id);
    const { rows } = await db.pool.query(`SELECT data FROM events WHERE stream_id = $1 AND type = 'WebhookEndpointRemoved'`, [`webhooks-${shop.id}`]);
    expect(rows.map((row) => row.data)).toEqual([
      {
        websiteId: shop.id,
        endpointId: created.endpoint.id,
        removedBy: owner.id,
        removedAt: expect.any(String),
      },
    ]);

    const again = await owner.request({ method: 'DELETE', url });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    expect(
      (
        await owner.request({
          method: 'DELETE',
          url: `${endpointsUrl(shop.id)}/${randomUUID()}`,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('the delivery log and Send again', () => {
  let endpointId: string;
  let otherEndpointId: string;
  const deliveries: string[] = [];

  async function insertDelivery(endpoint: string, websiteId: string, createdAt: string, status: string, attempts: number): Promise<string> {
    const deliveryId = randomUUID();
    await db.pool.query(
      `INSERT INTO webhook_deliveries (delivery_id, endpoint_id, website_id, visitor_id, source_event_id, message_id, event_type, payload, status, attempts,
                                       next_attempt_at, claimed_by, claimed_at, last_status_code, last_error, created_at, delivered_at)
       VALUES ($1, $2, $3, 'v1', $4, $5, 'lead.identified', '{"type":"lead.identified"}', $6, $7, $8, $9, $10, $11, $12, $8, $13)`,
      [
        deliveryId,
        endpoint,
        websiteId,
        randomUUID(),
        `msg_${deliveryId.slice(0, 8)}`,
        status,
        attempts,
        createdAt,
        status === 'sending' ? 'worker-1' : null,
        status === 'sending' ? createdAt : null,
        status === 'delivered' ? 200 : status === 'failed' ? 500 : null,
        status === 'failed' ? 'HTTP 500' : null,
        status === 'delivered' ? createdAt : null,
      ],
    );
    for (let attempt = 1; attempt <= attempts; attempt++) {
      await db.pool.query(
        `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, attempted_at, status_code, error, duration_ms) VALUES ($1, $2::int, $3::timestamptz + make_interval(secs => $2::int), $4, $5, $6)`,
        [
          deliveryId,
          attempt,
          createdAt,
          attempt === attempts && status === 'delivered' ? 200 : 500,
          attempt === attempts && status === 'delivered' ? null : 'HTTP 500',
          40 + attempt,
        ],
      );
    }
    return deliveryId;
  }

  beforeAll(async () => {
    endpointId = (await add(owner, shop.id, { url: 'https://hooks.example.com/logged' })).json().endpoint.id;
    otherEndpointId =
      (
        await add(stranger, foreign.id, {
          url: 'https://hooks.example.com/theirs',
        })
      ).json().endpoint?.id ?? randomUUID();
    const statuses = ['delivered', 'failed', 'queued', 'sending'];
    for (let index = 0; index < 12; index++) {
      // Two deliveries share each creation instant: the log orders them by id.
      const createdAt = new Date(Date.parse('2025-03-10T12:00:00.000Z') + Math.floor(index / 2) * 1000).toISOString();
      deliveries.push(await insertDelivery(endpointId, shop.id, createdAt, statuses[index % 4]!, (index % 3) + 1));
    }
  });

  it('lists an endpoint’s deliveries newest first with every try, page by page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let first: { deliveries: Record<string, unknown>[] } | undefined;
    do {
      const response = await owner.request({
        method: 'GET',
        url: `${endpointsUrl(shop.id)}/${endpointId}/deliveries?limit=5${cursor ? `&cursor=${cursor}` : ''}`,
      });
      expect(response.statusCode).toBe(200);
      const page = response.json();
      first ??= page;
      seen.push(...page.deliveries.map((delivery: { id: string }) => delivery.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    const newestFirst = deliveries
      .map((id, index) => ({ id, at: Math.floor(index / 2) }))
      .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
      .map((delivery) => delivery.id);
    expect(seen).toEqual(newestFirst);

    const newest = first!.deliveries[0]!;
    const index = deliveries.indexOf(newest.id as string);
    expect(newest).toMatchObject({
      endpointId,
      messageId: `msg_${(newest.id as string).slice(0, 8)}`,
      eventType: 'lead.identified',
      attempts: (index % 3) + 1,
    });
    const log = newest.attemptLog as { attempt: number }[];
    expect(log.map((entry) => entry.attempt)).toEqual(Array.from({ length: (index % 3) + 1 }, (_, n) => (index % 3) + 1 - n));
    expect(log[0]).toEqual({
      attempt: expect.any(Number),
      attemptedAt: expect.any(String),
      statusCode: expect.any(Number),
      error: expect.anything(),
      durationMs: expect.any(Number),
    });
    const queued = (
      await owner.request({
        method: 'GET',
        url: `${endpointsUrl(shop.id)}/${endpointId}/deliveries?limit=100`,
      })
    ).json().deliveries;
    for (const delivery of queued) expect(delivery.nextAttemptAt === null).toBe(delivery.status !== 'queued');
  });

  it("answers 404 for another owner's endpoint log, and 400 for a cursor it did not give out", async () => {
    expect(
      (
        await stranger.request({
          method: 'GET',
          url: `${endpointsUrl(shop.id)}/${endpointId}/deliveries`,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await owner.request({
          method: 'GET',
          url: `${endpointsUrl(shop.id)}/${otherEndpointId}/deliveries`,
        })
      ).statusCode,
    ).toBe(404);
    const bad = await owner.request({
      method: 'GET',
      url: `${endpointsUrl(shop.id)}/${endpointId}/deliveries?cursor=2025-01-01`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('INVALID_CURSOR');
  });

  it('queues a failed or delivered delivery again, now; one that waits or is being sent is 409', async () => {
    const [delivered, failed, queued, sending] = deliveries;
    for (const id of [failed!, delivered!]) {
      const before = (await db.pool.query('SELECT attempts FROM webhook_deliveries WHERE delivery_id = $1', [id])).rows[0];
      const response = await owner.request({
        method: 'POST',
        url: `/api/webhook-deliveries/${id}/resend`,
      });
      expect(response.statusCode).toBe(202);
      expect(response.json()).toMatchObject({
        id,
        status: 'queued',
        attempts: before.attempts,
        nextAttemptAt: expect.any(String),
      });
      const { rows } = await db.pool.query(
        `SELECT status, claimed_by, attempts, next_attempt_at <= now() AS due, (SELECT count(*)::int FROM webhook_delivery_attempts a WHERE a.delivery_id = d.delivery_id) AS tries
           FROM webhook_deliveries d WHERE delivery_id = $1`,
        [id],
      );
      expect(rows[0]).toEqual({
        status: 'queued',
        claimed_by: null,
        attempts: before.attempts,
        due: true,
        tries: before.attempts,
      });
    }
    for (const id of [queued!, sending!, failed!]) {
      const response = await owner.request({
        method: 'POST',
        url: `/api/webhook-deliveries/${id}/resend`,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('DELIVERY_IN_PROGRESS');
    }
  });

  it("answers 404 for another owner's delivery or an unknown one, and 409 once the endpoint is removed", async () => {
    const failedOfMine = deliveries[5]!;
    expect(
      (
        await stranger.request({
          method: 'POST',
          url: `/api/webhook-deliveries/${failedOfMine}/resend`,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await owner.request({
          method: 'POST',
          url: `/api/webhook-deliveries/${randomUUID()}/resend`,
        })
      ).statusCode,
    ).toBe(404);
    const { rows } = await db.pool.query('SELECT status FROM webhook_deliveries WHERE delivery_id = $1', [failedOfMine]);
    expect(rows[0].status).toBe('failed');

    expect(
      (
        await owner.request({
          method: 'DELETE',
          url: `${endpointsUrl(shop.id)}/${endpointId}`,
        })
      ).statusCode,
    ).toBe(204);
    const gone = await owner.request({
      method: 'POST',
      url: `/api/webhook-deliveries/${failedOfMine}/resend`,
    });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().error.code).toBe('WEBHOOK_ENDPOINT_REMOVED');
    expect(
      (
        await owner.request({
          method: 'GET',
          url: `${endpointsUrl(shop.id)}/${endpointId}/deliveries`,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('secrets', () => {
  it('never appear in a log line, whatever happened before', () => {
    // Every secret ever stored, against everything the app logged in this file.
    return db.pool.query('SELECT secret FROM webhook_endpoint_secrets').then(({ rows }) => {
      expect(rows.length).toBeGreaterThan(10);
      const logs = api.logs.join('\n');
      for (const { secret } of rows) expect(logs).not.toContain(secret.slice(6));
    });
  });
});
