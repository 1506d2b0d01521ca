// The write side of an owner's webhook endpoints (docs/identification.md): checking where a webhook
// may point, adding an endpoint with its signing secret, removing one, and queueing a logged
// delivery again ("Send again"). The endpoints live on the website's `webhooks-{websiteId}` stream
// (the webhook endpoints decider of events/);
// the secret is a credential, stored in webhook_endpoint_secrets in the same transaction as the
// event that adds the endpoint and never in the log, a log line or any answer but the one that
// created it.
import { randomBytes, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { WebhookEndpointNotFoundError, webhookEndpointsDecider, webhookEndpointsStreamId, type WebhookEventType } from '@consentry/events';
import { isBlockedAddress, systemLookup, type Db, type HostLookup, type InlineHandler, type Queryable } from '@consentry/infra';
import { ApiError } from '../errors';
import { handleApiCommand } from '../domain/commands';
import type { WebhookDeliveryStatus } from '@consentry/projections';

export { maxWebhookEndpointsPerWebsite } from '@consentry/events';
export const maxWebhookUrlLength = 2048;

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface WebhookUrlOptions {
  /** Hostnames or IP literals allowed even when they resolve to private addresses (VERIFY_ALLOWED_HOSTS). */
  readonly allowHosts?: readonly string[];
  readonly lookup?: HostLookup;
}

const invalidUrl = (message: string) => new ApiError(400, 'INVALID_WEBHOOK_URL', message);

/**
 * The URL as it will be stored, or a 400 saying why it cannot be a webhook: http or https only, no
 * user name or password in it (the secret signs the requests; credentials in a URL end up in logs),
 * and a host that resolves to public addresses only — a webhook must not become a way for an owner
 * to make the server call into its own network (the SSRF rules of the installation check;
 * VERIFY_ALLOWED_HOSTS exempts hosts, as it does there). The worker checks the address again when it
 * sends: DNS may answer differently later.
 */
export async function checkWebhookUrl(raw: string, options: WebhookUrlOptions = {}): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl('Enter a full address such as https://hooks.example.com/consentry');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidUrl('A webhook address must start with https:// or http://');
  if (url.username !== '' || url.password !== '') {
    throw invalidUrl('Leave the user name and password out of the address: each delivery is signed with the endpoint’s secret instead');
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (hostname === '') throw invalidUrl('The address needs a host name');
  const normalised = url.toString();
  if (normalised.length > maxWebhookUrlLength) throw invalidUrl(`The address may have at most ${maxWebhookUrlLength} characters`);
  if (options.allowHosts?.includes(hostname)) return normalised;
  const literal = isIP(hostname);
  const addresses = literal ? [{ address: hostname, family: literal }] : await (options.lookup ?? systemLookup)(hostname).catch(() => []);
  if (addresses.length === 0) throw invalidUrl(`${hostname} could not be resolved; check the host name`);
  if (addresses.some((entry) => isBlockedAddress(entry.address))) {
    throw invalidUrl(`${hostname} is a private or reserved address; webhooks can only be sent to public addresses`);
  }
  return normalised;
}

export interface NewWebhookEndpoint {
  readonly url: string;
  readonly description: string;
  readonly eventTypes: readonly WebhookEventType[];
}

/**
 * Adds an endpoint (WebhookEndpointAdded, with the read model updated inline) and stores its secret
 * in the same transaction; answers the endpoint's id and the secret. At most ten per website (409
 * WEBHOOK_LIMIT_REACHED): the count comes from the stream and the append expects the version it was
 * read at, so two adds racing for the last place cannot both succeed (the second gets 409 CONFLICT).
 */
export async function addWebhookEndpoint(pool: Db, websiteId: string, endpoint: NewWebhookEndpoint, actor: string): Promise<{ endpointId: string; secret: string }> {
  const endpointId = randomUUID();
  const secret = generateWebhookSecret();
  const storeSecret: InlineHandler = {
    name: 'webhook-endpoint-secret',
    canHandle: ['WebhookEndpointAdded'],
    async apply(events, tx) {
      for (const event of events) {
        if (event.type !== 'WebhookEndpointAdded' || event.data.endpointId !== endpointId) continue;
        await tx.query({
          name: 'insert-webhook-endpoint-secret',
          text: 'INSERT INTO webhook_endpoint_secrets (endpoint_id, secret) VALUES ($1, $2) ON CONFLICT (endpoint_id) DO NOTHING',
          values: [endpointId, secret],
        });
      }
    },
  };
  await handleApiCommand(
    pool,
    webhookEndpointsStreamId(websiteId),
    webhookEndpointsDecider,
    {
      type: 'AddWebhookEndpoint',
      data: { websiteId, endpointId, url: endpoint.url, description: endpoint.description, eventTypes: endpoint.eventTypes, addedBy: actor },
      metadata: { now: new Date().toISOString() },
    },
    { hooks: [storeSecret], metadata: { actor } },
  );
  return { endpointId, secret };
}

/** Removes a standing endpoint of the website (WebhookEndpointRemoved); 404 for any other id. */
export async function removeWebhookEndpoint(pool: Db, websiteId: string, endpointId: string, actor: string): Promise<void> {
  await handleApiCommand(
    pool,
    webhookEndpointsStreamId(websiteId),
    webhookEndpointsDecider,
    { type: 'RemoveWebhookEndpoint', data: { websiteId, endpointId, removedBy: actor }, metadata: { now: new Date().toISOString() } },
    { metadata: { actor } },
  );
}

export const webhookEndpointNotFound = () => new WebhookEndpointNotFoundError();

/**
 * Queues a delivery that was delivered or gave up to be sent once more, now ("Send again"): the
 * worker claims it like any due delivery and logs the try after the earlier ones (the tries count on,
 * so the attempts log keeps every try). Answers the delivery's new state, or null when it is not
 * delivered or failed (it still waits or is being sent) or does not exist.
 */
export async function requeueWebhookDelivery(db: Queryable, deliveryId: string): Promise<{ id: string; status: WebhookDeliveryStatus } | null> {
  const { rows } = await db.query<{ delivery_id: string; status: WebhookDeliveryStatus }>({
    name: 'requeue-webhook-delivery',
    text: `UPDATE webhook_deliveries SET status = 'queued', next_attempt_at = now(), claimed_by = NULL, claimed_at = NULL
            WHERE delivery_id = $1 AND status IN ('delivered', 'failed')
        RETURNING delivery_id, status`,
    values: [deliveryId],
  });
  return rows[0] ? { id: rows[0].delivery_id, status: rows[0].status } : null;
}

