// The user decider as given / when / then: registering, completing an invitation, admins changing a
// subscription, owners renaming themselves, deletion.
import { describe, expect, it } from 'vitest';
import { foldEvents } from './decider';
import { deciderSpec } from './testing/decider-spec';
import type { UserEvent } from './user';
import { EmailTakenError, userDecider, UserNotFoundError, type UserCommand, type UserLimits } from './user-decider';

const userId = '0b7e6c5d-4f3a-4b2c-9d1e-8f7a6b5c4d3e';
const now = '2024-05-01T10:00:00.000Z';
const freePlan: UserLimits = { subscriptionTier: 'free', maxWebsites: 1, maxConsentsPerMonth: 10_000 };

const { given } = deciderSpec(userDecider);

const register = (email = 'ada@example.com'): UserCommand => ({
  type: 'RegisterUser',
  data: { userId, email, firstName: 'Ada', lastName: 'Lovelace', startingPlan: freePlan },
  metadata: { now },
});

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId, email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', registeredAt: now },
};
const onFreePlan: UserEvent = {
  type: 'UserSubscriptionChanged',
  data: { userId, subscriptionTier: 'free', subscriptionStatus: 'active', maxWebsites: 1, maxConsentsPerMonth: 10_000, changedAt: now },
};
const invited: UserEvent = {
  type: 'UserInvited',
  data: { userId, email: 'ada@example.com', subscriptionTier: 'pro', maxWebsites: 1, maxConsentsPerMonth: 15, invitedBy: 'admin', invitedAt: now },
};
const deleted: UserEvent = { type: 'UserDeleted', data: { userId, deletedAt: now } };

const change = (overrides: Partial<{ subscriptionStatus: 'active' | 'cancelled' | 'expired'; maxWebsites: number; isActive: boolean }> = {}): UserCommand => ({
  type: 'ChangeUserSubscription',
  data: { userId, subscriptionTier: 'free', subscriptionStatus: 'active', maxWebsites: 1, maxConsentsPerMonth: 10_000, isActive: true, ...overrides },
  metadata: { now },
});

describe('when nobody has this account yet', () => {
  it('registers the person on the starting plan', () => {
    given([]).when(register()).then([registered, onFreePlan]);
  });

  it('invites the person with the given limits', () => {
    given([])
      .when({
        type: 'InviteUser',
        data: { userId, email: 'ada@example.com', invitedBy: 'admin', subscriptionTier: 'pro', maxWebsites: 1, maxConsentsPerMonth: 15 },
        metadata: { now },
      })
      .then([invited]);
  });

  it('has no subscription to change and nothing to delete', () => {
    given([]).when(change()).thenThrows(UserNotFoundError);
    given([]).when({ type: 'DeleteUser', data: { userId }, metadata: { now } }).thenThrows(UserNotFoundError);
  });
});

describe('when the person was invited', () => {
  it('completes the invitation and keeps the invited limits', () => {
    given([invited]).when(register()).then([registered]);
    expect(foldEvents(userDecider, [invited, registered])).toMatchObject({ status: 'registered', subscriptionTier: 'pro', maxWebsites: 1, maxConsentsPerMonth: 15 });
  });

  it('refuses a registration under another email into the same stream', () => {
    given([invited]).when(register('eve@example.com')).thenThrows(EmailTakenError);
  });

  it('refuses a second invitation', () => {
    given([invited])
      .when({
        type: 'InviteUser',
        data: { userId, email: 'ada@example.com', invitedBy: 'admin', ...freePlan },
        metadata: { now },
      })
      .thenThrows(EmailTakenError);
  });
});

describe('when the person is registered', () => {
  it('refuses registering again', () => {
    given([registered, onFreePlan]).when(register()).thenThrows(EmailTakenError);
  });

  it('records nothing when an admin saves the same subscription', () => {
    given([registered, onFreePlan]).when(change()).then([]);
  });

  it('records the subscription change and the activation change separately', () => {
    given([registered, onFreePlan])
      .when(change({ subscriptionStatus: 'cancelled', maxWebsites: 3, isActive: false }))
      .then([
        {
          type: 'UserSubscriptionChanged',
          data: { userId, subscriptionTier: 'free', subscriptionStatus: 'cancelled', maxWebsites: 3, maxConsentsPerMonth: 10_000, changedAt: now },
        },
        { type: 'UserActivationChanged', data: { userId, isActive: false, changedAt: now } },
      ]);
  });

  it('records only the activation when only that changes', () => {
    given([registered, onFreePlan])
      .when(change({ isActive: false }))
      .then([{ type: 'UserActivationChanged', data: { userId, isActive: false, changedAt: now } }]);
  });

  it('deletes the account', () => {
    given([registered, onFreePlan]).when({ type: 'DeleteUser', data: { userId }, metadata: { now } }).then([deleted]);
  });
});

const rename = (firstName: string | null, lastName: string | null): UserCommand => ({
  type: 'ChangeUserName',
  data: { userId, firstName, lastName },
  metadata: { now },
});

describe('when a registered owner renames themselves', () => {
  it('records the new name', () => {
    given([registered, onFreePlan])
      .when(rename('Augusta Ada', null))
      .then([{ type: 'UserNameChanged', data: { userId, firstName: 'Augusta Ada', lastName: null, changedAt: now } }]);
  });

  it('records nothing for the name they already have, also after an earlier rename', () => {
    given([registered, onFreePlan]).when(rename('Ada', 'Lovelace')).then([]);
    const renamed: UserEvent = { type: 'UserNameChanged', data: { userId, firstName: 'Ada', lastName: 'King', changedAt: now } };
    given([registered, onFreePlan, renamed]).when(rename('Ada', 'King')).then([]);
  });

  it('refuses an invitation not accepted yet and a deleted account', () => {
    given([invited]).when(rename('Ada', null)).thenThrows(UserNotFoundError);
    given([registered, onFreePlan, deleted]).when(rename('Ada', null)).thenThrows(UserNotFoundError);
  });
});

const changeEmail = (email: string): UserCommand => ({ type: 'ChangeUserEmail', data: { userId, email }, metadata: { now } });

describe('when a registered owner confirms a new email', () => {
  it('records the new email, and the state follows it', () => {
    const changed: UserEvent = { type: 'UserEmailChanged', data: { userId, email: 'ada.king@example.com', changedAt: now } };
    given([registered, onFreePlan]).when(changeEmail('ada.king@example.com')).then([changed]);
    expect(foldEvents(userDecider, [registered, onFreePlan, changed])).toMatchObject({ status: 'registered', email: 'ada.king@example.com' });
  });

  it('records nothing for the email they already have, also after an earlier change', () => {
    given([registered, onFreePlan]).when(changeEmail('ada@example.com')).then([]);
    const changed: UserEvent = { type: 'UserEmailChanged', data: { userId, email: 'ada.king@example.com', changedAt: now } };
    given([registered, onFreePlan, changed]).when(changeEmail('ada.king@example.com')).then([]);
    given([registered, onFreePlan, changed]).when(changeEmail('ada@example.com')).then([{ type: 'UserEmailChanged', data: { userId, email: 'ada@example.com', changedAt: now } }]);
  });

  it('refuses an invitation not accepted yet, an unknown and a deleted account', () => {
    given([]).when(changeEmail('ada.king@example.com')).thenThrows(UserNotFoundError);
    given([invited]).when(changeEmail('ada.king@example.com')).thenThrows(UserNotFoundError);
    given([registered, onFreePlan, deleted]).when(changeEmail('ada.king@example.com')).thenThrows(UserNotFoundError);
  });
});

describe('when the owner deletes their own account', () => {
  it('records the same UserDeleted an admin deletion does, after a rename or an email change too', () => {
    const renamed: UserEvent = { type: 'UserNameChanged', data: { userId, firstName: 'Ada', lastName: 'King', changedAt: now } };
    const changed: UserEvent = { type: 'UserEmailChanged', data: { userId, email: 'ada.king@example.com', changedAt: now } };
    given([registered, onFreePlan, renamed, changed]).when({ type: 'DeleteUser', data: { userId }, metadata: { now } }).then([deleted]);
  });
});

describe('when the account was deleted', () => {
  it('can be neither changed, deleted again nor registered into', () => {
    given([registered, onFreePlan, deleted]).when(change()).thenThrows(UserNotFoundError);
    given([registered, onFreePlan, deleted]).when({ type: 'DeleteUser', data: { userId }, metadata: { now } }).thenThrows(UserNotFoundError);
    given([registered, onFreePlan, deleted]).when(register()).thenThrows(UserNotFoundError);
  });
});
