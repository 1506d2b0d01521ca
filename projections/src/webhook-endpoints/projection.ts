// Webhook endpoints: an owner's endpoints per website, kept inline (same transaction as the append) so
// the api reads its own writes and the webhook-dispatch reactor sees an endpoint the moment it is
// added. A removed endpoint keeps its row (the delivery log still names it) with removed_at set.
// The signing secrets are a credential the api keeps in webhook_endpoint_secrets, never here.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export const webhookEndpointsProjection: Projection = {
  name: 'webhook-endpoints',
  canHandle: ['WebhookEndpointAdded', 'WebhookEndpointRemoved'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      switch (event.type) {
        case 'WebhookEndpointAdded': {
          const { endpointId, websiteId, url, description, eventTypes, addedBy, addedAt } = event.data;
          await tx.query({
            name: 'webhook-endpoints-add',
            text: `INSERT INTO webhook_endpoints (endpoint_id, website_id, url, description, event_types, added_by, added_at)
                   VALUES ($1, $2, $3, $4, $5, $6, $7)
                   ON CONFLICT (endpoint_id) DO UPDATE
                     SET website_id = $2, url = $3, description = $4, event_types = $5, added_by = $6, added_at = $7`,
            values: [endpointId, websiteId, url, description, eventTypes, addedBy, addedAt],
          });
          break;
        }
        case 'WebhookEndpointRemoved':
          await tx.query({
            name: 'webhook-endpoints-remove',
            text: 'UPDATE webhook_endpoints SET removed_at = $2 WHERE endpoint_id = $1 AND website_id = $3',
            values: [event.data.endpointId, event.data.removedAt, event.data.websiteId],
          });
          break;
        default:
          break;
      }
    }
  },

  tables: ['webhook_endpoints'],
};
