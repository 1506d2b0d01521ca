// The decider of a website's webhook endpoints (`webhooks-<websiteId>`): adding one, at most
// maxWebhookEndpointsPerWebsite standing at once, and removing a standing one. The signing secret is
// a credential, never in the log: the handler stores it in the append's transaction.
import { DecisionError, assertNever, type CommandMetadata, type StreamDecider } from './decider';
import { webhookEndpointEventTypes, type WebhookEndpointEvent, type WebhookEventType } from './identification';

/** The most endpoints a website may have. */
export const maxWebhookEndpointsPerWebsite = 10;

export interface AddWebhookEndpoint {
  readonly type: 'AddWebhookEndpoint';
  readonly data: {
    readonly websiteId: string;
    readonly endpointId: string;
    readonly url: string;
    readonly description: string;
    readonly eventTypes: readonly WebhookEventType[];
    readonly addedBy: string;
  };
  readonly metadata: CommandMetadata;
}

export interface RemoveWebhookEndpoint {
  readonly type: 'RemoveWebhookEndpoint';
  readonly data: { readonly websiteId: string; readonly endpointId: string; readonly removedBy: string };
  readonly metadata: CommandMetadata;
}

export type WebhookEndpointCommand = AddWebhookEndpoint | RemoveWebhookEndpoint;

/** The endpoints that stand (added, not removed). */
export interface WebhookEndpointsState {
  readonly standing: ReadonlySet<string>;
}

export class WebhookLimitReachedError extends DecisionError {
  constructor() {
    super(
      'WEBHOOK_LIMIT_REACHED',
      'conflict',
      `A website can have at most ${maxWebhookEndpointsPerWebsite} webhook endpoints; remove one before adding another`,
    );
  }
}

export class WebhookEndpointNotFoundError extends DecisionError {
  constructor() {
    super('WEBHOOK_ENDPOINT_NOT_FOUND', 'not_found', 'Webhook endpoint not found');
  }
}

export function decideWebhookEndpoints(command: WebhookEndpointCommand, state: WebhookEndpointsState): WebhookEndpointEvent[] {
  const now = command.metadata.now;
  switch (command.type) {
    case 'AddWebhookEndpoint': {
      if (state.standing.size >= maxWebhookEndpointsPerWebsite) throw new WebhookLimitReachedError();
      const { eventTypes, ...endpoint } = command.data;
      return [{ type: 'WebhookEndpointAdded', data: { ...endpoint, eventTypes: [...eventTypes], addedAt: now } }];
    }
    case 'RemoveWebhookEndpoint': {
      if (!state.standing.has(command.data.endpointId)) throw new WebhookEndpointNotFoundError();
      return [{ type: 'WebhookEndpointRemoved', data: { ...command.data, removedAt: now } }];
    }
    default:
      return assertNever(command);
  }
}

export function evolveWebhookEndpoints(state: WebhookEndpointsState, event: WebhookEndpointEvent): WebhookEndpointsState {
  const standing = new Set(state.standing);
  switch (event.type) {
    case 'WebhookEndpointAdded':
      standing.add(event.data.endpointId);
      return { standing };
    case 'WebhookEndpointRemoved':
      standing.delete(event.data.endpointId);
      return { standing };
    default:
      return assertNever(event);
  }
}

export const webhookEndpointsDecider: StreamDecider<WebhookEndpointCommand, WebhookEndpointEvent, WebhookEndpointsState> = {
  eventTypes: webhookEndpointEventTypes,
  decide: decideWebhookEndpoints,
  evolve: evolveWebhookEndpoints,
  initialState: () => ({ standing: new Set() }),
};
