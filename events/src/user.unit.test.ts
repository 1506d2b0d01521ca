import { describe, expect, it } from 'vitest';
import { exampleEventData } from './examples';
import { failuresOf, text } from './test-helpers';
import {
  UserActivationChangedData,
  UserDeletedData,
  UserInvitedData,
  UserRegisteredData,
  UserSubscriptionChangedData,
  erasedOwnerEmail,
  ownerErasurePatchOf,
} from './user';

const tierOptions = '"free"|"basic"|"pro"|"business"|"starter"|"professional"|"enterprise"';

describe('a user registering', () => {
  const valid = exampleEventData.UserRegistered;

  it('parses, also without names', () => {
    expect(failuresOf(UserRegisteredData, valid)).toEqual([]);
    expect(failuresOf(UserRegisteredData, { ...valid, firstName: null, lastName: null })).toEqual([]);
  });

  it.each([
    ['userId', 'user-1', 'Invalid UUID'],
    ['email', 'owner.example.com', 'Invalid email address'],
    ['firstName', text(101), 'Too big: expected string to have <=100 characters'],
    ['lastName', text(101), 'Too big: expected string to have <=100 characters'],
  ])('refuses %s = %j', (field, value, message) => {
    expect(failuresOf(UserRegisteredData, { ...valid, [field]: value })).toEqual([{ path: field, message }]);
  });
});

describe('a user being invited', () => {
  const valid = exampleEventData.UserInvited;

  it.each(['free', 'basic', 'pro', 'business', 'starter', 'professional', 'enterprise'])('parses tier %s', (tier) => {
    expect(failuresOf(UserInvitedData, { ...valid, subscriptionTier: tier })).toEqual([]);
  });

  it('parses the limits at their bounds', () => {
    expect(failuresOf(UserInvitedData, { ...valid, maxWebsites: 0, maxConsentsPerMonth: 0 })).toEqual([]);
    expect(failuresOf(UserInvitedData, { ...valid, maxWebsites: 10_000, maxConsentsPerMonth: 1_000_000_000 })).toEqual(
      [],
    );
  });

  it.each([
    ['subscriptionTier', 'gold', `Invalid option: expected one of ${tierOptions}`],
    ['maxWebsites', -1, 'Too small: expected number to be >=0'],
    ['maxWebsites', 10_001, 'Too big: expected number to be <=10000'],
    ['maxWebsites', 1.5, 'Invalid input: expected int, received number'],
    ['maxConsentsPerMonth', -1, 'Too small: expected number to be >=0'],
    ['maxConsentsPerMonth', 1_000_000_001, 'Too big: expected number to be <=1000000000'],
    ['invitedBy', '', 'Too small: expected string to have >=1 characters'],
    ['invitedBy', text(101), 'Too big: expected string to have <=100 characters'],
  ])('refuses %s = %j', (field, value, message) => {
    expect(failuresOf(UserInvitedData, { ...valid, [field]: value })).toEqual([{ path: field, message }]);
  });
});

describe('a user subscription changing', () => {
  const valid = exampleEventData.UserSubscriptionChanged;

  it.each(['active', 'cancelled', 'expired'])('parses status %s', (subscriptionStatus) => {
    expect(failuresOf(UserSubscriptionChangedData, { ...valid, subscriptionStatus })).toEqual([]);
  });

  it('refuses an unknown status', () => {
    expect(failuresOf(UserSubscriptionChangedData, { ...valid, subscriptionStatus: 'paused' })).toEqual([
      { path: 'subscriptionStatus', message: 'Invalid option: expected one of "active"|"cancelled"|"expired"' },
    ]);
  });
});

describe('a user being switched on and off or deleted', () => {
  it('parses', () => {
    expect(failuresOf(UserActivationChangedData, exampleEventData.UserActivationChanged)).toEqual([]);
    expect(failuresOf(UserDeletedData, exampleEventData.UserDeleted)).toEqual([]);
  });

  it('refuses a deletion without a time', () => {
    expect(failuresOf(UserDeletedData, { userId: exampleEventData.UserDeleted.userId })).toEqual([
      { path: 'deletedAt', message: 'Invalid input: expected string, received undefined' },
    ]);
  });
});

describe('erasing a deleted owner’s personal data', () => {
  const userId = exampleEventData.UserRegistered.userId;

  it('replaces every email with a placeholder that still parses, and nulls names', () => {
    const registered = { ...exampleEventData.UserRegistered, firstName: 'Ada', lastName: 'Lovelace' };
    const patch = ownerErasurePatchOf('UserRegistered', registered, userId);
    expect(patch).toEqual({ email: erasedOwnerEmail(userId), firstName: null, lastName: null });
    expect(UserRegisteredData.parse({ ...registered, ...patch })).toMatchObject({ email: `erased-${userId}@erased.invalid` });
    expect(ownerErasurePatchOf('UserInvited', exampleEventData.UserInvited, userId)).toEqual({ email: erasedOwnerEmail(userId) });
    expect(ownerErasurePatchOf('UserEmailChanged', exampleEventData.UserEmailChanged, userId)).toEqual({ email: erasedOwnerEmail(userId) });
    expect(ownerErasurePatchOf('UserNameChanged', { ...exampleEventData.UserNameChanged, firstName: 'Ada', lastName: null }, userId)).toEqual({ firstName: null });
  });

  it('changes nothing in events without personal data, already erased ones, or other families', () => {
    expect(ownerErasurePatchOf('UserSubscriptionChanged', exampleEventData.UserSubscriptionChanged, userId)).toEqual({});
    expect(ownerErasurePatchOf('UserDeleted', exampleEventData.UserDeleted, userId)).toEqual({});
    expect(ownerErasurePatchOf('UserRegistered', { ...exampleEventData.UserRegistered, email: erasedOwnerEmail(userId), firstName: null, lastName: null }, userId)).toEqual({});
    expect(ownerErasurePatchOf('ConsentGiven', { email: 'visitor@example.com' }, userId)).toEqual({});
  });
});
