// The user stream family: accounts of website owners, their subscription and limits as admins set
// them, the name and email they give themselves, and their deletion. Credentials and sessions are secrets, not history: they are not here.
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
import { actor, emailAddress, isoDateTime, maxConsentsPerMonth, maxWebsites, subscriptionTier, userId } from './fields';

export const subscriptionStatuses = ['active', 'cancelled', 'expired'] as const;
export const subscriptionStatus = z.enum(subscriptionStatuses);
export type SubscriptionStatus = z.infer<typeof subscriptionStatus>;

const personName = z.string().max(100).nullable();

export const UserRegisteredData = z.strictObject({
  userId,
  email: emailAddress,
  firstName: personName,
  lastName: personName,
  registeredAt: isoDateTime,
});
export type UserRegisteredData = z.infer<typeof UserRegisteredData>;
export const UserRegistered = defineEvent({
  type: 'UserRegistered',
  version: 1,
  category: 'user',
  schema: UserRegisteredData,
});
export type UserRegistered = EventOf<typeof UserRegistered>;

export const UserInvitedData = z.strictObject({
  userId,
  email: emailAddress,
  subscriptionTier,
  maxWebsites,
  maxConsentsPerMonth,
  /** The admin's username. */
  invitedBy: actor,
  invitedAt: isoDateTime,
});
export type UserInvitedData = z.infer<typeof UserInvitedData>;
export const UserInvited = defineEvent({ type: 'UserInvited', version: 1, category: 'user', schema: UserInvitedData });
export type UserInvited = EventOf<typeof UserInvited>;

export const UserSubscriptionChangedData = z.strictObject({
  userId,
  subscriptionTier,
  subscriptionStatus,
  maxWebsites,
  maxConsentsPerMonth,
  changedAt: isoDateTime,
});
export type UserSubscriptionChangedData = z.infer<typeof UserSubscriptionChangedData>;
export const UserSubscriptionChanged = defineEvent({
  type: 'UserSubscriptionChanged',
  version: 1,
  category: 'user',
  schema: UserSubscriptionChangedData,
});
export type UserSubscriptionChanged = EventOf<typeof UserSubscriptionChanged>;

export const UserActivationChangedData = z.strictObject({ userId, isActive: z.boolean(), changedAt: isoDateTime });
export type UserActivationChangedData = z.infer<typeof UserActivationChangedData>;
export const UserActivationChanged = defineEvent({
  type: 'UserActivationChanged',
  version: 1,
  category: 'user',
  schema: UserActivationChangedData,
});
export type UserActivationChanged = EventOf<typeof UserActivationChanged>;

export const UserDeletedData = z.strictObject({ userId, deletedAt: isoDateTime });
export type UserDeletedData = z.infer<typeof UserDeletedData>;
export const UserDeleted = defineEvent({ type: 'UserDeleted', version: 1, category: 'user', schema: UserDeletedData });
export type UserDeleted = EventOf<typeof UserDeleted>;

/** The owner changed their own name (null: left blank). */
export const UserNameChangedData = z.strictObject({ userId, firstName: personName, lastName: personName, changedAt: isoDateTime });
export type UserNameChangedData = z.infer<typeof UserNameChangedData>;
export const UserNameChanged = defineEvent({ type: 'UserNameChanged', version: 1, category: 'user', schema: UserNameChangedData });
export type UserNameChanged = EventOf<typeof UserNameChanged>;

/** The owner's sign-in email changed, once they confirmed the new address (lower-cased). */
export const UserEmailChangedData = z.strictObject({ userId, email: emailAddress, changedAt: isoDateTime });
export type UserEmailChangedData = z.infer<typeof UserEmailChangedData>;
export const UserEmailChanged = defineEvent({ type: 'UserEmailChanged', version: 1, category: 'user', schema: UserEmailChangedData });
export type UserEmailChanged = EventOf<typeof UserEmailChanged>;

export type UserEvent =
  | UserRegistered
  | UserInvited
  | UserSubscriptionChanged
  | UserActivationChanged
  | UserNameChanged
  | UserEmailChanged
  | UserDeleted;
export const userEventTypes = [
  'UserRegistered',
  'UserInvited',
  'UserSubscriptionChanged',
  'UserActivationChanged',
  'UserNameChanged',
  'UserEmailChanged',
  'UserDeleted',
] as const satisfies readonly UserEvent['type'][];

/** The email a deleted owner's events keep once their personal data is erased: names nobody. */
export const erasedOwnerEmail = (userId: string) => `erased-${userId}@erased.invalid`;

/**
 * What erasing a deleted owner's personal data changes in one of their events: emails become the
 * placeholder, names null. Empty when the event holds none (a key its type does not have is never added).
 */
export function ownerErasurePatchOf(type: string, data: Readonly<Record<string, unknown>>, userId: string): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (!(userEventTypes as readonly string[]).includes(type)) return patch;
  if (typeof data.email === 'string' && data.email !== erasedOwnerEmail(userId)) patch.email = erasedOwnerEmail(userId);
  for (const key of ['firstName', 'lastName'] as const) {
    if (key in data && data[key] !== null) patch[key] = null;
  }
  return patch;
}
