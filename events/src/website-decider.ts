// The decider of a website stream (`website-<id>`): adding a website within the owner's plan limit
// and removing it. The limit is a fact about the owner's other streams, so the command carries it
// (how many websites the owner has, how many the plan allows) as read by the handler.
import { DecisionError, assertNever, type CommandMetadata, type StreamDecider } from './decider';
import { websiteEventTypes, type WebsiteEvent, type WebsiteSettingsChangedData } from './website';

export function websiteStreamId(websiteId: string): string {
  return `website-${websiteId}`;
}

export type WebsiteState =
  | { readonly status: 'absent' }
  | { readonly status: 'present'; readonly websiteId: string; readonly ownerId: string; readonly isActive: boolean }
  | { readonly status: 'removed'; readonly websiteId: string; readonly ownerId: string };

/** Who asks: the owner (by user id) or an admin, who may act on any website. */
export type WebsiteActor = { readonly kind: 'owner'; readonly userId: string } | { readonly kind: 'admin'; readonly username: string };

export interface AddWebsite {
  readonly type: 'AddWebsite';
  readonly data: {
    readonly websiteId: string;
    readonly ownerId: string;
    readonly name: string;
    readonly domain: string;
    readonly embedCode: string;
    /** Websites the owner has now, before this one. */
    readonly ownerWebsiteCount: number;
    /** The owner's plan limit. */
    readonly maxWebsites: number;
  };
  readonly metadata: CommandMetadata;
}

export interface RemoveWebsite {
  readonly type: 'RemoveWebsite';
  readonly data: { readonly websiteId: string; readonly actor: WebsiteActor };
  readonly metadata: CommandMetadata;
}

/** The settings to change; the ones left out keep their value. */
export type WebsiteSettingsChange = Omit<WebsiteSettingsChangedData, 'websiteId' | 'changedAt'>;

export interface ChangeWebsiteSettings {
  readonly type: 'ChangeWebsiteSettings';
  readonly data: { readonly websiteId: string; readonly actor: WebsiteActor; readonly settings: WebsiteSettingsChange };
  readonly metadata: CommandMetadata;
}

export type WebsiteCommand = AddWebsite | RemoveWebsite | ChangeWebsiteSettings;

export class WebsiteLimitReachedError extends DecisionError {
  constructor() {
    // Spec section 5: the exact text the web app shows.
    super('WEBSITE_LIMIT_REACHED', 'limit_reached', 'Website limit reached');
  }
}

export class WebsiteNotFoundError extends DecisionError {
  constructor() {
    super('WEBSITE_NOT_FOUND', 'not_found', 'Website not found');
  }
}

export class WebsiteAlreadyExistsError extends DecisionError {
  constructor() {
    super('WEBSITE_EXISTS', 'conflict', 'A website with this id already exists');
  }
}

export function initialWebsiteState(): WebsiteState {
  return { status: 'absent' };
}

export function decideWebsite(command: WebsiteCommand, state: WebsiteState): WebsiteEvent[] {
  switch (command.type) {
    case 'AddWebsite': {
      if (state.status !== 'absent') throw new WebsiteAlreadyExistsError();
      const { websiteId, ownerId, name, domain, embedCode, ownerWebsiteCount, maxWebsites } = command.data;
      if (ownerWebsiteCount >= maxWebsites) throw new WebsiteLimitReachedError();
      return [{ type: 'WebsiteAdded', data: { websiteId, ownerId, name, domain, embedCode, addedAt: command.metadata.now } }];
    }
    case 'RemoveWebsite': {
      // Another owner's website reads as missing: its existence is not revealed.
      if (state.status !== 'present') throw new WebsiteNotFoundError();
      const { actor } = command.data;
      if (actor.kind === 'owner' && actor.userId !== state.ownerId) throw new WebsiteNotFoundError();
      return [{ type: 'WebsiteRemoved', data: { websiteId: state.websiteId, removedAt: command.metadata.now } }];
    }
    case 'ChangeWebsiteSettings': {
      if (state.status !== 'present') throw new WebsiteNotFoundError();
      const { actor, settings } = command.data;
      if (actor.kind === 'owner' && actor.userId !== state.ownerId) throw new WebsiteNotFoundError();
      const changed = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
      // Nothing to change is not an event: the log records changes only.
      if (Object.keys(changed).length === 0) return [];
      return [{ type: 'WebsiteSettingsChanged', data: { websiteId: state.websiteId, ...changed, changedAt: command.metadata.now } }];
    }
    default:
      return assertNever(command);
  }
}

export function evolveWebsite(state: WebsiteState, event: WebsiteEvent): WebsiteState {
  switch (event.type) {
    case 'WebsiteAdded':
      return { status: 'present', websiteId: event.data.websiteId, ownerId: event.data.ownerId, isActive: true };
    case 'WebsiteRemoved':
      return state.status === 'present' ? { status: 'removed', websiteId: state.websiteId, ownerId: state.ownerId } : state;
    case 'WebsiteActivationChanged':
      return state.status === 'present' ? { ...state, isActive: event.data.isActive } : state;
    case 'WebsiteSettingsChanged':
      return state;
    default:
      return assertNever(event);
  }
}

export const websiteDecider: StreamDecider<WebsiteCommand, WebsiteEvent, WebsiteState> = {
  eventTypes: websiteEventTypes,
  decide: decideWebsite,
  evolve: evolveWebsite,
  initialState: initialWebsiteState,
};
