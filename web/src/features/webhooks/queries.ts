// A website's outgoing webhooks (docs/identification.md): its endpoints (['webhooks', websiteId]) and
// one endpoint's delivery log (['webhooks', websiteId, endpointId, 'deliveries']), both under the
// website's webhooks prefix so a change refreshes only that website's.
//
// The delivery log is refetched on a timer only while a delivery is being sent or is due within a
// minute (after "Send again", or a retry about to happen): the sender's progress reaches no live
// update, so this is the only way to see it land. Retries hours away, and a log at rest, are never
// polled, and the app's "never refetch" default holds.
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson, sendJson } from '../../lib/api';
import type { ApiBody, ApiSchemas } from '../../lib/api-types';

export type WebhookEndpoint = ApiSchemas['WebhookEndpoint'];
export type WebhookEventType = WebhookEndpoint['eventTypes'][number];
/** Every event a webhook can send, in the order the form offers them. */
export const webhookEventTypes = ['lead.identified', 'lead.enriched', 'consent.withdrawn'] as const satisfies readonly WebhookEventType[];

/** `messageId`: the Standard Webhooks `webhook-id`, the same on every try, so receivers can drop repeats; `attemptLog`: every try, newest first. */
export type WebhookDelivery = ApiSchemas['WebhookDeliveryWithAttempts'];
export type WebhookDeliveryStatus = WebhookDelivery['status'];
export type WebhookDeliveryAttempt = WebhookDelivery['attemptLog'][number];
/** One page of the log, newest first; `nextCursor` asks for older deliveries. */
export type WebhookDeliveryPage = ApiSchemas['WebhookDeliveryLog'];

/** Reads a page of the log: `{ deliveries, nextCursor }`, or a bare list (one page, nothing older). */
export function readDeliveryPage(answer: unknown): WebhookDeliveryPage {
  if (Array.isArray(answer)) return { deliveries: answer as WebhookDelivery[], nextCursor: null };
  const page = (answer ?? {}) as Partial<WebhookDeliveryPage>;
  return { deliveries: Array.isArray(page.deliveries) ? page.deliveries : [], nextCursor: typeof page.nextCursor === 'string' ? page.nextCursor : null };
}

export type NewWebhookEndpoint = ApiBody<'/api/websites/{id}/webhooks', 'post'>;
/** The POST answer: the endpoint and its signing secret, which is never shown again. */
export type AddedWebhookEndpoint = ApiSchemas['WebhookEndpointCreated'];

/** How often the log is refetched while a delivery is being sent or due. */
export const deliveryPollIntervalMs = 3_000;
/** A queued delivery due within this long counts as about to be sent. */
export const deliveryDueSoonMs = 60_000;

/** Whether a delivery's outcome may change in the next moments. */
export function isDeliveryInFlight(delivery: Pick<WebhookDelivery, 'status' | 'nextAttemptAt'>, now: number): boolean {
  if (delivery.status === 'sending') return true;
  if (delivery.status !== 'queued') return false;
  if (delivery.nextAttemptAt === null) return true;
  const due = Date.parse(delivery.nextAttemptAt);
  return Number.isNaN(due) || due - now <= deliveryDueSoonMs;
}

export function getDeliveryPollInterval(deliveries: readonly WebhookDelivery[] | undefined, now: number): number | false {
  return deliveries?.some((delivery) => isDeliveryInFlight(delivery, now)) ? deliveryPollIntervalMs : false;
}

const webhooksPath = (websiteId: string) => `/api/websites/${encodeURIComponent(websiteId)}/webhooks`;

export function webhooksQueryOptions(websiteId: string) {
  return queryOptions({
    queryKey: ['webhooks', websiteId],
    queryFn: () => getJson<WebhookEndpoint[]>(webhooksPath(websiteId)),
  });
}

/** Deliveries shown per page of the log. */
export const deliveriesPageSize = 50;

export function webhookDeliveriesQueryOptions(websiteId: string, endpointId: string) {
  return infiniteQueryOptions({
    queryKey: ['webhooks', websiteId, endpointId, 'deliveries'],
    queryFn: async ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(deliveriesPageSize) });
      if (pageParam) params.set('cursor', pageParam);
      return readDeliveryPage(await getJson<unknown>(`${webhooksPath(websiteId)}/${encodeURIComponent(endpointId)}/deliveries?${params.toString()}`));
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) => getDeliveryPollInterval(query.state.data?.pages.flatMap((page) => page.deliveries), Date.now()),
  });
}

/** Reads the POST answer whether the api nests the endpoint (`{ endpoint, secret }`) or spreads it (`{ …endpoint, secret }`). */
export function readAddedEndpoint(answer: unknown): AddedWebhookEndpoint {
  const record = (answer ?? {}) as { endpoint?: WebhookEndpoint; secret?: unknown } & Partial<WebhookEndpoint>;
  const secret = typeof record.secret === 'string' ? record.secret : '';
  if (record.endpoint && typeof record.endpoint === 'object') return { endpoint: record.endpoint, secret };
  const { secret: _secret, ...endpoint } = record;
  return { endpoint: endpoint as WebhookEndpoint, secret };
}

export function useAddWebhookEndpoint(websiteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (endpoint: NewWebhookEndpoint) => readAddedEndpoint(await sendJson<unknown>('POST', webhooksPath(websiteId), endpoint)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions(websiteId).queryKey, exact: true }),
  });
}

export function useRemoveWebhookEndpoint(websiteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpointId: string) => sendJson<unknown>('DELETE', `${webhooksPath(websiteId)}/${encodeURIComponent(endpointId)}`),
    onSuccess: (_answer, endpointId) => {
      queryClient.setQueryData(webhooksQueryOptions(websiteId).queryKey, (endpoints) => endpoints?.filter((endpoint) => endpoint.id !== endpointId));
      queryClient.removeQueries({ queryKey: webhookDeliveriesQueryOptions(websiteId, endpointId).queryKey });
      return queryClient.invalidateQueries({ queryKey: webhooksQueryOptions(websiteId).queryKey, exact: true });
    },
  });
}

/** "Send again": queues the delivery once more; the log then follows it until it lands. */
export function useResendWebhookDelivery(websiteId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => sendJson<unknown>('POST', `/api/webhook-deliveries/${encodeURIComponent(deliveryId)}/resend`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookDeliveriesQueryOptions(websiteId, endpointId).queryKey }),
  });
}
