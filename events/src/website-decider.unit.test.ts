// The website decider as given / when / then: given the stream's events, when a command, then the
// new events or the refusal.
import { describe, expect, it } from 'vitest';
import { foldEvents } from './decider';
import { deciderSpec } from './testing/decider-spec';
import type { WebsiteEvent } from './website';
import {
  websiteDecider,
  WebsiteAlreadyExistsError,
  WebsiteLimitReachedError,
  WebsiteNotFoundError,
  type AddWebsite,
  type WebsiteCommand,
} from './website-decider';

const websiteId = '6f1c2b7e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
const ownerId = '0b7e6c5d-4f3a-4b2c-9d1e-8f7a6b5c4d3e';
const otherOwnerId = '1c8f7d6e-5a4b-4c3d-8e2f-9a8b7c6d5e4f';
const now = '2024-05-01T10:00:00.000Z';
const later = '2024-06-01T10:00:00.000Z';

const { given } = deciderSpec(websiteDecider);

const added: WebsiteEvent = {
  type: 'WebsiteAdded',
  data: { websiteId, ownerId, name: 'Bakery', domain: 'bakery.example', embedCode: 'Xk3_pQ9-vT2mZ8aB', addedAt: now },
};

function addWebsite(limits: { ownerWebsiteCount: number; maxWebsites: number }): AddWebsite {
  return {
    type: 'AddWebsite',
    data: { websiteId, ownerId, name: 'Bakery', domain: 'bakery.example', embedCode: 'Xk3_pQ9-vT2mZ8aB', ...limits },
    metadata: { now },
  };
}

const removeBy = (actor: { kind: 'owner'; userId: string } | { kind: 'admin'; username: string }): WebsiteCommand => ({
  type: 'RemoveWebsite',
  data: { websiteId, actor },
  metadata: { now: later },
});

describe('when the owner is below the website limit', () => {
  it('adds the website', () => {
    given([]).when(addWebsite({ ownerWebsiteCount: 0, maxWebsites: 1 })).then([added]);
    given([]).when(addWebsite({ ownerWebsiteCount: 2, maxWebsites: 3 })).then([added]);
  });
});

describe('when the website limit is reached', () => {
  it('refuses with "Website limit reached"', () => {
    given([]).when(addWebsite({ ownerWebsiteCount: 1, maxWebsites: 1 })).thenThrows(WebsiteLimitReachedError);
    given([]).when(addWebsite({ ownerWebsiteCount: 0, maxWebsites: 0 })).thenThrows(WebsiteLimitReachedError);
    expect(new WebsiteLimitReachedError()).toMatchObject({ code: 'WEBSITE_LIMIT_REACHED', kind: 'limit_reached', message: 'Website limit reached' });
  });
});

describe('when the website already exists', () => {
  it('refuses to add it again', () => {
    given([added]).when(addWebsite({ ownerWebsiteCount: 0, maxWebsites: 5 })).thenThrows(WebsiteAlreadyExistsError);
  });

  it('lets its owner remove it', () => {
    given([added])
      .when(removeBy({ kind: 'owner', userId: ownerId }))
      .then([{ type: 'WebsiteRemoved', data: { websiteId, removedAt: later } }]);
  });

  it('lets an admin remove it', () => {
    given([added])
      .when(removeBy({ kind: 'admin', username: 'admin' }))
      .then([{ type: 'WebsiteRemoved', data: { websiteId, removedAt: later } }]);
  });

  it('does not reveal it to another owner', () => {
    given([added]).when(removeBy({ kind: 'owner', userId: otherOwnerId })).thenThrows(WebsiteNotFoundError);
  });

  it('keeps its owner and activation through settings and activation changes', () => {
    const state = foldEvents(websiteDecider, [
      added,
      { type: 'WebsiteSettingsChanged', data: { websiteId, bannerTheme: 'dark', changedAt: now } },
      { type: 'WebsiteActivationChanged', data: { websiteId, isActive: false, changedAt: now } },
    ]);
    expect(state).toEqual({ status: 'present', websiteId, ownerId, isActive: false });
  });
});

describe('when the website was removed', () => {
  const removed: WebsiteEvent = { type: 'WebsiteRemoved', data: { websiteId, removedAt: later } };

  it('cannot be removed again', () => {
    given([added, removed]).when(removeBy({ kind: 'owner', userId: ownerId })).thenThrows(WebsiteNotFoundError);
  });

  it('cannot be added again under the same id', () => {
    given([added, removed]).when(addWebsite({ ownerWebsiteCount: 0, maxWebsites: 5 })).thenThrows(WebsiteAlreadyExistsError);
  });
});

describe('when the website never existed', () => {
  it('cannot be removed', () => {
    given([]).when(removeBy({ kind: 'admin', username: 'admin' })).thenThrows(WebsiteNotFoundError);
  });
});
