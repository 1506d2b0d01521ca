// Outgoing webhooks of a website (docs/identification.md): list, add (the signing secret is shown
// once, in the answer that creates it), remove, the delivery log of an endpoint, and "Send again".
// Every route answers 404 for a website, endpoint or delivery outside the viewer's scope, as if it
// did not exist.
import { webhookEventType, webhookEventTypes } from '@consentry/events';
import type { Db } from '@consentry/infra';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInViewer, visibleWebsite, visibleWebsites } from '../access';
import { ApiError } from '../errors';
import { errorsFor, noContent, uuidParam } from '../schemas';
import {
  addWebhookEndpoint,
  checkWebhookUrl,
  maxWebhookEndpointsPerWebsite,
  maxWebhookUrlLength,
  removeWebhookEndpoint,
  requeueWebhookDelivery,
  webhookEndpointNotFound,
  type WebhookUrlOptions,
} from './endpoints';
import {
  getWebhookDelivery,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  type WebhookDelivery,
  type WebhookDeliveryCursor,
  type WebhookEndpoint,
  type Website,
} from '@consentry/projections';

export interface WebhookRoutesOptions {
  readonly pool: Db;
  /** Where webhook URLs may point (VERIFY_ALLOWED_HOSTS; a DNS lookup for tests). */
  readonly urlCheck?: WebhookUrlOptions;
}

const deliveryStatus = z.enum(['queued', 'sending', 'delivered', 'failed']);

const endpointAnswer = z
  .object({
    id: z.uuid(),
    websiteId: z.uuid(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(webhookEventType),
    addedAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookEndpoint' });

const createdAnswer = z
  .object({
    endpoint: endpointAnswer,
    secret: z.string().meta({ description: 'The signing secret (Standard Webhooks, whsec_…). Shown only here, once: keep it now.' }),
  })
  .meta({ id: 'WebhookEndpointCreated' });

const deliveryAnswer = z
  .object({
    id: z.uuid(),
    endpointId: z.uuid(),
    messageId: z.string().meta({ description: 'The webhook-id header' }),
    eventType: z.string(),
    status: deliveryStatus,
    attempts: z.int(),
    lastStatusCode: z.int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.iso.datetime(),
    deliveredAt: z.iso.datetime().nullable(),
    nextAttemptAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

const deliveryWithAttemptsAnswer = deliveryAnswer
  .extend({
    attemptLog: z
      .array(z.object({ attempt: z.int(), attemptedAt: z.iso.datetime(), statusCode: z.int().nullable(), error: z.string().nullable(), durationMs: z.int() }))
      .meta({ description: 'Every try, newest first' }),
  })
  .meta({ id: 'WebhookDeliveryWithAttempts' });

const deliveriesAnswer = z
  .object({ deliveries: z.array(deliveryWithAttemptsAnswer), nextCursor: z.string().nullable() })
  .meta({ id: 'WebhookDeliveryLog' });

const newEndpointBody = z
  .strictObject({
    url: z.string().trim().min(1, { error: 'Enter the address to send webhooks to' }).max(maxWebhookUrlLength),
    description: z.string().trim().max(200).default(''),
    eventTypes: z
      .array(webhookEventType)
      .min(1, { error: 'Choose at least one event to send' })
      .max(webhookEventTypes.length)
      .refine((types) => new Set(types).size === types.length, { error: 'Name each event type once' })
      .default([...webhookEventTypes])
      .meta({ description: `What to send (${webhookEventTypes.join(', ')}); default: all` }),
  })
  .meta({ id: 'NewWebhookEndpoint' });

const deliveriesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional().meta({ description: "The previous page's nextCursor" }),
});

const toEndpointAnswer = (endpoint: WebhookEndpoint): z.infer<typeof endpointAnswer> => ({
  id: endpoint.id,
  websiteId: endpoint.websiteId,
  url: endpoint.url,
  description: endpoint.description,
  eventTypes: [...endpoint.eventTypes],
  addedAt: endpoint.addedAt,
});

const toDeliveryAnswer = (delivery: WebhookDelivery): z.infer<typeof deliveryAnswer> => ({
  id: delivery.id,
  endpointId: delivery.endpointId,
  messageId: delivery.messageId,
  eventType: delivery.eventType,
  status: delivery.status,
  attempts: delivery.attempts,
  lastStatusCode: delivery.lastStatusCode,
  lastError: delivery.lastError,
  createdAt: delivery.createdAt,
  deliveredAt: delivery.deliveredAt,
  nextAttemptAt: delivery.nextAttemptAt,
});

const cursorPattern = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const encodeDeliveryCursor = (cursor: WebhookDeliveryCursor) => `${cursor.createdAt}_${cursor.deliveryId}`;
function decodeDeliveryCursor(text: string): WebhookDeliveryCursor {
  const match = cursorPattern.exec(text);
  if (!match) throw new ApiError(400, 'INVALID_CURSOR', 'The cursor is not one this log gave out; start again from the first page');
  return { createdAt: match[1]!, deliveryId: match[2]! };
}

export const webhookRoutes: FastifyPluginAsyncZod<WebhookRoutesOptions> = async (app, { pool, urlCheck }) => {
  async function websiteInScope(request: FastifyRequest, websiteId: string): Promise<{ website: Website; actor: string }> {
    const viewer = signedInViewer(request);
    return { website: await visibleWebsite(pool, viewer, websiteId), actor: viewer.adminUsername ?? viewer.user!.id };
  }

  async function endpointOf(websiteId: string, endpointId: string): Promise<WebhookEndpoint> {
    const endpoint = await getWebhookEndpoint(pool, endpointId);
    if (!endpoint || endpoint.websiteId !== websiteId || endpoint.removedAt !== null) throw webhookEndpointNotFound();
    return endpoint;
  }

  app.get(
    '/api/websites/:id/webhooks',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['webhooks'],
        summary: "The website's webhook endpoints, oldest first (never their secrets)",
        params: z.object({ id: uuidParam }),
        response: { 200: z.array(endpointAnswer), ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const { website } = await websiteInScope(request, request.params.id);
      return (await listWebhookEndpoints(pool, website.id)).map(toEndpointAnswer);
    },
  );

  app.post(
    '/api/websites/:id/webhooks',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'signedIn' },
      schema: {
        tags: ['webhooks'],
        summary: 'Add a webhook endpoint; the answer holds its signing secret, the only time it is shown',
        description:
          'The URL must be http(s), without a user name or password, and resolve to public addresses only (400 `INVALID_WEBHOOK_URL`). ' +
          `At most ${maxWebhookEndpointsPerWebsite} endpoints per website (409 \`WEBHOOK_LIMIT_REACHED\`). Deliveries are signed as Standard Webhooks describes.`,
        params: z.object({ id: uuidParam }),
        body: newEndpointBody,
        response: { 201: createdAnswer, ...errorsFor(400, 401, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { website, actor } = await websiteInScope(request, request.params.id);
      const url = await checkWebhookUrl(request.body.url, urlCheck);
      const { endpointId, secret } = await addWebhookEndpoint(pool, website.id, { url, description: request.body.description, eventTypes: request.body.eventTypes }, actor);
      const endpoint = await getWebhookEndpoint(pool, endpointId);
      if (!endpoint) throw new Error(`Webhook endpoint ${endpointId} was added but is not in the read model`);
      return reply.code(201).send({ endpoint: toEndpointAnswer(endpoint), secret });
    },
  );

  app.delete(
    '/api/websites/:id/webhooks/:endpointId',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['webhooks'],
        summary: 'Remove a webhook endpoint (nothing more is sent to it)',
        params: z.object({ id: uuidParam, endpointId: uuidParam }),
        response: { 204: noContent, ...errorsFor(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const { website, actor } = await websiteInScope(request, request.params.id);
      await removeWebhookEndpoint(pool, website.id, request.params.endpointId, actor);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/websites/:id/webhooks/:endpointId/deliveries',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['webhooks'],
        summary: "An endpoint's delivery log, newest first, each delivery with every try",
        params: z.object({ id: uuidParam, endpointId: uuidParam }),
        querystring: deliveriesQuery,
        response: { 200: deliveriesAnswer, ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const { website } = await websiteInScope(request, request.params.id);
      const endpoint = await endpointOf(website.id, request.params.endpointId);
      const page = await listWebhookDeliveries(pool, endpoint.id, {
        limit: request.query.limit,
        cursor: request.query.cursor === undefined ? null : decodeDeliveryCursor(request.query.cursor),
      });
      return {
        deliveries: page.deliveries.map((delivery) => ({ ...toDeliveryAnswer(delivery), attemptLog: [...delivery.attemptLog] })),
        nextCursor: page.nextCursor ? encodeDeliveryCursor(page.nextCursor) : null,
      };
    },
  );

  app.post(
    '/api/webhook-deliveries/:deliveryId/resend',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['webhooks'],
        summary: 'Send a delivered or failed delivery again, now ("Send again")',
        description:
          'Queues the delivery once more; the worker sends it with the same webhook-id (receivers that deduplicate see a repeat). ' +
          '409 `DELIVERY_IN_PROGRESS` while it still waits or is being sent; 409 `WEBHOOK_ENDPOINT_REMOVED` for a removed endpoint.',
        params: z.object({ deliveryId: uuidParam }),
        body: z.strictObject({}).nullish(),
        response: { 202: deliveryAnswer, ...errorsFor(400, 401, 404, 409, 415) },
      },
    },
    async (request, reply) => {
      const delivery = await getWebhookDelivery(pool, request.params.deliveryId);
      const inScope = delivery !== null && (await visibleWebsites(pool, signedInViewer(request))).some((website) => website.id === delivery.websiteId);
      if (!delivery || !inScope) throw new ApiError(404, 'DELIVERY_NOT_FOUND', 'Delivery not found');
      const endpoint = await getWebhookEndpoint(pool, delivery.endpointId);
      if (!endpoint || endpoint.removedAt !== null) throw new ApiError(409, 'WEBHOOK_ENDPOINT_REMOVED', 'The endpoint of this delivery was removed; nothing is sent to it any more');
      const requeued = await requeueWebhookDelivery(pool, delivery.id);
      if (!requeued) throw new ApiError(409, 'DELIVERY_IN_PROGRESS', 'This delivery is already waiting to be sent or being sent');
      const current = await getWebhookDelivery(pool, delivery.id);
      return reply.code(202).send(toDeliveryAnswer(current!));
    },
  );
};
