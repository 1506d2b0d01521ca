// The webhook endpoints decider as given / when / then: at most ten endpoints stand at once, and only
// a standing endpoint can be removed.
import { describe, it } from 'vitest';
import type { WebhookEndpointEvent } from './identification';
import { deciderSpec } from './testing/decider-spec';
import {
  maxWebhookEndpointsPerWebsite,
  webhookEndpointsDecider,
  WebhookEndpointNotFoundError,
  WebhookLimitReachedError,
  type AddWebhookEndpoint,
  type RemoveWebhookEndpoint,
} from './webhook-decider';

const { given, when } = deciderSpec(webhookEndpointsDecider);
const websiteId = '0b7e6c5d-4f3a-4b2c-9d1e-8f7a6b5c4d3e';
const now = '2024-05-01T10:00:00.000Z';
const endpointId = (index: number) => `6f1c2b7e-3a4d-4e5f-8a9b-${String(index).padStart(12, '0')}`;

const add = (index: number): AddWebhookEndpoint => ({
  type: 'AddWebhookEndpoint',
  data: { websiteId, endpointId: endpointId(index), url: 'https://hooks.example.com/crm', description: 'CRM', eventTypes: ['lead.identified'], addedBy: 'owner-1' },
  metadata: { now },
});
const added = (index: number): WebhookEndpointEvent => ({
  type: 'WebhookEndpointAdded',
  data: { websiteId, endpointId: endpointId(index), url: 'https://hooks.example.com/crm', description: 'CRM', eventTypes: ['lead.identified'], addedBy: 'owner-1', addedAt: now },
});
const remove = (index: number): RemoveWebhookEndpoint => ({ type: 'RemoveWebhookEndpoint', data: { websiteId, endpointId: endpointId(index), removedBy: 'owner-1' }, metadata: { now } });
const removed = (index: number): WebhookEndpointEvent => ({ type: 'WebhookEndpointRemoved', data: { websiteId, endpointId: endpointId(index), removedBy: 'owner-1', removedAt: now } });
const tenStanding = Array.from({ length: maxWebhookEndpointsPerWebsite }, (_, index) => added(index));

describe('when the website has room for another endpoint', () => {
  it('adds it', () => {
    when(add(1)).then([added(1)]);
    given(tenStanding.slice(1)).when(add(0)).then([added(0)]);
  });
});

describe('when ten endpoints stand', () => {
  it('refuses an eleventh with WEBHOOK_LIMIT_REACHED', () => {
    given(tenStanding).when(add(10)).thenThrows(WebhookLimitReachedError);
  });

  it('makes room again once one is removed', () => {
    given([...tenStanding, removed(3)]).when(add(10)).then([added(10)]);
  });
});

describe('when an endpoint is removed', () => {
  it('removes a standing one', () => {
    given([added(1)]).when(remove(1)).then([removed(1)]);
  });

  it('refuses one that does not stand: never added, or removed already', () => {
    when(remove(1)).thenThrows(WebhookEndpointNotFoundError);
    given([added(1), removed(1)]).when(remove(1)).thenThrows(WebhookEndpointNotFoundError);
  });
});
