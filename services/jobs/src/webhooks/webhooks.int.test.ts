// The webhook delivery worker against real Postgres and a real receiver on loopback that checks every
// signature with our verifier, as a Standard Webhooks consumer would. Receivers that fail twice, never
// answer, or answer 410 Gone; removed endpoints; the SSRF guard; "Send again"; two workers sharing the
// queue. Retry delays are milliseconds here (the schedule is an option), and nothing asserts time.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, waitFor, type TestDatabase } from '@consentry/infra/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resendDelivery } from './deliveries';
import { endpointRemovedError, startWebhookDeliveryWorker, webhookUserAgent, type WebhookWorker, type WebhookWorkerOptions } from './delivery-worker';
import { generateWebhookSecret, verifyWebhook } from './signature';

interface Received {
  readonly path: string;
  readonly id: string;
  readonly verified: boolean;
  readonly body: string;
  readonly userAgent: string | undefined;
  readonly contentType: string | undefined;
}

/** A receiver: each path answers as its name says, after checking the signature with the endpoint's secret. */
class Receiver {
  readonly received: Received[] = [];
  readonly secrets = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private readonly held = new Set<ServerResponse>();
  /** Paths that answer 200 from now on whatever their name says. */
  readonly healed = new Set<string>();
  private server!: Server;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    let verified = false;
    let id = '';
    try {
      id = verifyWebhook(this.secrets.get(path) ?? '', request.headers as Record<string, string>, body).id;
      verified = true;
    } catch {
      verified = false;
    }
    this.received.push({ path, id, verified, body, userAgent: request.headers['user-agent'], contentType: request.headers['content-type'] });
    if (!verified) return void response.writeHead(400).end('bad signature');
    const count = (this.counts.get(path) ?? 0) + 1;
    this.counts.set(path, count);
    const kind = this.healed.has(path) ? 'ok' : path.split('/')[1];
    if (kind === 'flaky' && count <= 2) return void response.writeHead(500).end('not now');
    if (kind === 'gone') return void response.writeHead(410).end();
    if (kind === 'silent') {
      // Never answers; the worker's timeout ends the try.
      this.held.add(response);
      return;
    }
    response.writeHead(204).end();
  }

  ofPath(path: string): Received[] {
    return this.received.filter((entry) => entry.path === path);
  }

  async close(): Promise<void> {
    for (const response of this.held) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let db: TestDatabase;
const receiver = new Receiver();
const websiteId = randomUUID();
const workers: WebhookWorker[] = [];

beforeAll(async () => {
  db = await createTestDatabase('webhooks');
  await receiver.start();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});
afterAll(async () => {
  await receiver.close();
  await db?.drop();
});

function startWorker(options: Partial<WebhookWorkerOptions> = {}): WebhookWorker {
  const worker = startWebhookDeliveryWorker({
    pool: db.pool,
    workerId: `test-${randomUUID().slice(0, 8)}`,
    allowHosts: ['127.0.0.1'],
    retryScheduleMs: [10, 10],
    pollMs: 20,
    timeoutMs: 5_000,
    ...options,
  });
  workers.push(worker);
  return worker;
}

/** An endpoint at the receiver's `path` (a fresh path per test, so counts never mix). */
async function addEndpoint(path: string, options: { removed?: boolean } = {}): Promise<string> {
  const endpointId = randomUUID();
  const secret = generateWebhookSecret();
  receiver.secrets.set(path, secret);
  await db.pool.query(
    `INSERT INTO webhook_endpoints (endpoint_id, website_id, url, description, event_types, added_by, added_at, removed_at)
     VALUES ($1, $2, $3, 'test', ARRAY['lead.identified'], 'owner', now(), CASE WHEN $4 THEN now() END)`,
    [endpointId, websiteId, receiver.url(path), options.removed ?? false],
  );
  await db.pool.query('INSERT INTO webhook_endpoint_secrets (endpoint_id, secret) VALUES ($1, $2)', [endpointId, secret]);
  return endpointId;
}

/** A queued delivery, as the webhook-dispatch reactor would insert it. */
async function queueDelivery(endpointId: string): Promise<{ deliveryId: string; messageId: string; payload: object }> {
  const deliveryId = randomUUID();
  const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
  const payload = { type: 'lead.identified', timestamp: new Date().toISOString(), data: { websiteId, visitorId: 'v1', email: 'ada@example.com' } };
  await db.pool.query(
    `INSERT INTO webhook_deliveries (delivery_id, endpoint_id, website_id, visitor_id, source_event_id, message_id, event_type, payload, next_attempt_at, created_at)
     VALUES ($1, $2, $3, 'v1', $4, $5, 'lead.identified', $6, now(), now())`,
    [deliveryId, endpointId, websiteId, randomUUID(), messageId, JSON.stringify(payload)],
  );
  return { deliveryId, messageId, payload };
}

interface DeliveryRow {
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

async function deliveryOf(deliveryId: string): Promise<DeliveryRow> {
  const { rows } = await db.pool.query<DeliveryRow>('SELECT status, attempts, last_status_code, last_error, delivered_at FROM webhook_deliveries WHERE delivery_id = $1', [deliveryId]);
  return rows[0]!;
}

async function attemptsOf(deliveryId: string): Promise<{ attempt: number; status_code: number | null; error: string | null; duration_ms: number }[]> {
  const { rows } = await db.pool.query('SELECT attempt, status_code, error, duration_ms FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt', [deliveryId]);
  return rows;
}

const settled = (deliveryId: string) =>
  waitFor(async () => {
    const row = await deliveryOf(deliveryId);
    return row.status === 'delivered' || row.status === 'failed' ? row : null;
  }, { timeoutMs: 15_000, message: `delivery ${deliveryId} to settle` });

describe('a receiver that answers 2xx', () => {
  it('gets the payload once, signed with the endpoint’s secret, and the delivery is delivered', async () => {
    const endpointId = await addEndpoint('/ok/first');
    const { deliveryId, messageId, payload } = await queueDelivery(endpointId);
    startWorker();
    const row = await settled(deliveryId);
    expect(row).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 204, last_error: null });
    expect(row.delivered_at).not.toBeNull();
    const [received, ...more] = receiver.ofPath('/ok/first');
    expect(more).toEqual([]);
    expect(received).toMatchObject({ id: messageId, verified: true, userAgent: webhookUserAgent, contentType: 'application/json' });
    expect(JSON.parse(received!.body)).toEqual(payload);
    expect(await attemptsOf(deliveryId)).toEqual([{ attempt: 1, status_code: 204, error: null, duration_ms: expect.any(Number) }]);
  });
});

describe('a receiver that fails twice, then answers 200', () => {
  it('is tried three times with the same webhook-id, each try logged, and delivered once', async () => {
    const endpointId = await addEndpoint('/flaky/a');
    const { deliveryId, messageId } = await queueDelivery(endpointId);
    startWorker();
    const row = await settled(deliveryId);
    expect(row).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 204 });
    expect((await attemptsOf(deliveryId)).map((attempt) => [attempt.attempt, attempt.status_code, attempt.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 500, 'HTTP 500'],
      [3, 204, null],
    ]);
    const received = receiver.ofPath('/flaky/a');
    expect(received.map((entry) => entry.id)).toEqual([messageId, messageId, messageId]);
    expect(received.every((entry) => entry.verified)).toBe(true);
  });
});

describe('a receiver that never answers', () => {
  it('times out on every try and the delivery fails after the last retry', async () => {
    const endpointId = await addEndpoint('/silent/a');
    const { deliveryId } = await queueDelivery(endpointId);
    startWorker({ timeoutMs: 150 });
    const row = await settled(deliveryId);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, last_status_code: null, last_error: 'No answer within 150 ms' });
    const attempts = await attemptsOf(deliveryId);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status_code, attempt.error])).toEqual([
      [1, null, 'No answer within 150 ms'],
      [2, null, 'No answer within 150 ms'],
      [3, null, 'No answer within 150 ms'],
    ]);
    expect(receiver.ofPath('/silent/a')).toHaveLength(3);
  });
});

describe('a receiver that answers 410 Gone', () => {
  it('is not tried again: the delivery fails at once', async () => {
    const endpointId = await addEndpoint('/gone/a');
    const { deliveryId } = await queueDelivery(endpointId);
    startWorker();
    const row = await settled(deliveryId);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 410 });
    expect(row.last_error).toMatch(/^HTTP 410/);
    expect(await attemptsOf(deliveryId)).toHaveLength(1);
  });

  it('is sent again on "Send again", once the receiver takes it', async () => {
    const endpointId = await addEndpoint('/gone/b');
    const { deliveryId, messageId } = await queueDelivery(endpointId);
    startWorker();
    expect(await settled(deliveryId)).toMatchObject({ status: 'failed', attempts: 1 });
    receiver.healed.add('/gone/b');
    expect(await resendDelivery(db.pool, deliveryId)).toBe('queued');
    const row = await waitFor(async () => ((await deliveryOf(deliveryId)).status === 'delivered' ? deliveryOf(deliveryId) : null), {
      timeoutMs: 10_000,
      message: 'the resent delivery',
    });
    expect(row).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 204, last_error: null });
    expect((await attemptsOf(deliveryId)).map((attempt) => attempt.status_code)).toEqual([410, 204]);
    expect(receiver.ofPath('/gone/b').map((entry) => entry.id)).toEqual([messageId, messageId]);
  });
});

describe('"Send again"', () => {
  it('leaves a delivery that still waits alone, and knows no unknown delivery', async () => {
    const endpointId = await addEndpoint('/ok/waiting');
    const { deliveryId } = await queueDelivery(endpointId);
    expect(await resendDelivery(db.pool, deliveryId)).toBe('in_progress');
    expect(await resendDelivery(db.pool, randomUUID())).toBe('not_found');
    expect(await resendDelivery(db.pool, 'not-a-uuid')).toBe('not_found');
    expect((await deliveryOf(deliveryId)).status).toBe('queued');
  });
});

describe('a removed endpoint', () => {
  it('gets nothing: the delivery fails with "Endpoint removed" and no try is counted', async () => {
    const endpointId = await addEndpoint('/ok/removed', { removed: true });
    const { deliveryId } = await queueDelivery(endpointId);
    startWorker();
    const row = await settled(deliveryId);
    expect(row).toMatchObject({ status: 'failed', attempts: 0, last_error: endpointRemovedError });
    expect(await attemptsOf(deliveryId)).toEqual([]);
    expect(receiver.ofPath('/ok/removed')).toEqual([]);
  });
});

describe('an endpoint on a private address', () => {
  it('is refused by the SSRF guard unless the installation allows the host; each refusal is logged', async () => {
    const endpointId = await addEndpoint('/ok/private');
    const { deliveryId } = await queueDelivery(endpointId);
    startWorker({ allowHosts: [] });
    const row = await settled(deliveryId);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, last_status_code: null });
    expect(row.last_error).toBe('Refused: the endpoint resolves to a private or reserved address');
    expect(await attemptsOf(deliveryId)).toHaveLength(3);
    expect(receiver.ofPath('/ok/private')).toEqual([]);
  });
});

describe('two workers on one queue', () => {
  it('deliver each delivery exactly once', async () => {
    const endpointId = await addEndpoint('/ok/shared');
    const queued = await Promise.all(Array.from({ length: 24 }, () => queueDelivery(endpointId)));
    startWorker({ concurrency: 4 });
    startWorker({ concurrency: 4 });
    await Promise.all(queued.map(({ deliveryId }) => settled(deliveryId)));
    const rows = await Promise.all(queued.map(({ deliveryId }) => deliveryOf(deliveryId)));
    expect(rows.every((row) => row.status === 'delivered' && row.attempts === 1)).toBe(true);
    const ids = receiver.ofPath('/ok/shared').map((entry) => entry.id);
    expect(ids.sort()).toEqual(queued.map((delivery) => delivery.messageId).sort());
    const { rows: counted } = await db.pool.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM webhook_delivery_attempts WHERE delivery_id = ANY($1::uuid[])',
      [queued.map((delivery) => delivery.deliveryId)],
    );
    expect(counted[0]!.count).toBe(24);
  });
});
