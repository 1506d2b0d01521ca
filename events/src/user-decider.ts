// The decider of a user stream (`user-<id>`): registering (fresh, or completing an invitation),
// being invited, admins changing the subscription and the active flag, the owner renaming
// themselves or moving to a confirmed new email, and deletion (by an admin or by the owner). A fresh
// registration records the free plan's limits as its own event, so the log alone says what a user
// may do (a replay never depends on the plans table).
import { DecisionError, assertNever, type CommandMetadata, type StreamDecider } from './decider';
import type { SubscriptionTier } from './fields';
import { userEventTypes, type SubscriptionStatus, type UserEvent } from './user';

export function userStreamId(userId: string): string {
  return `user-${userId}`;
}

export interface UserLimits {
  readonly subscriptionTier: SubscriptionTier;
  readonly maxWebsites: number;
  readonly maxConsentsPerMonth: number;
}

export interface UserSubscription extends UserLimits {
  readonly subscriptionStatus: SubscriptionStatus;
  readonly isActive: boolean;
}

export type UserState =
  | { readonly status: 'none' }
  | ({ readonly status: 'invited'; readonly userId: string; readonly email: string } & UserSubscription)
  | ({
      readonly status: 'registered';
      readonly userId: string;
      readonly email: string;
      readonly firstName: string | null;
      readonly lastName: string | null;
    } & UserSubscription)
  | { readonly status: 'deleted'; readonly userId: string };

export interface RegisterUser {
  readonly type: 'RegisterUser';
  readonly data: {
    readonly userId: string;
    /** Lower-cased by the handler. */
    readonly email: string;
    readonly firstName: string | null;
    readonly lastName: string | null;
    /** What a fresh account starts on (the free plan); an invited one keeps its invitation's limits. */
    readonly startingPlan: UserLimits;
  };
  readonly metadata: CommandMetadata;
}

export interface InviteUser {
  readonly type: 'InviteUser';
  readonly data: { readonly userId: string; readonly email: string; readonly invitedBy: string } & UserLimits;
  readonly metadata: CommandMetadata;
}

export interface ChangeUserSubscription {
  readonly type: 'ChangeUserSubscription';
  readonly data: { readonly userId: string } & UserSubscription;
  readonly metadata: CommandMetadata;
}

export interface DeleteUser {
  readonly type: 'DeleteUser';
  readonly data: { readonly userId: string };
  readonly metadata: CommandMetadata;
}

export interface ChangeUserName {
  readonly type: 'ChangeUserName';
  /** Trimmed by the handler; null: left blank. */
  readonly data: { readonly userId: string; readonly firstName: string | null; readonly lastName: string | null };
  readonly metadata: CommandMetadata;
}

export interface ChangeUserEmail {
  readonly type: 'ChangeUserEmail';
  /** Lower-cased by the handler, after the owner opened the link sent to it. */
  readonly data: { readonly userId: string; readonly email: string };
  readonly metadata: CommandMetadata;
}

export type UserCommand = RegisterUser | InviteUser | ChangeUserSubscription | ChangeUserName | ChangeUserEmail | DeleteUser;

export class UserNotFoundError extends DecisionError {
  constructor() {
    super('USER_NOT_FOUND', 'not_found', 'User not found');
  }
}

export class EmailTakenError extends DecisionError {
  constructor() {
    super('EMAIL_TAKEN', 'conflict', 'An account with this email already exists');
  }
}

export function initialUserState(): UserState {
  return { status: 'none' };
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  const now = command.metadata.now;
  switch (command.type) {
    case 'RegisterUser': {
      const { userId, email, firstName, lastName, startingPlan } = command.data;
      const registered: UserEvent = { type: 'UserRegistered', data: { userId, email, firstName, lastName, registeredAt: now } };
      if (state.status === 'none') {
        return [
          registered,
          {
            type: 'UserSubscriptionChanged',
            data: { userId, ...startingPlan, subscriptionStatus: 'active', changedAt: now },
          },
        ];
      }
      // Completing an invitation: the same person (same email) keeps the limits they were invited with.
      if (state.status === 'invited' && state.email === email) return [registered];
      if (state.status === 'deleted') throw new UserNotFoundError();
      throw new EmailTakenError();
    }
    case 'InviteUser': {
      if (state.status !== 'none') throw new EmailTakenError();
      const { userId, email, invitedBy, subscriptionTier, maxWebsites, maxConsentsPerMonth } = command.data;
      return [
        { type: 'UserInvited', data: { userId, email, subscriptionTier, maxWebsites, maxConsentsPerMonth, invitedBy, invitedAt: now } },
      ];
    }
    case 'ChangeUserSubscription': {
      if (state.status !== 'invited' && state.status !== 'registered') throw new UserNotFoundError();
      const { userId, subscriptionTier, subscriptionStatus, maxWebsites, maxConsentsPerMonth, isActive } = command.data;
      const events: UserEvent[] = [];
      const subscriptionChanged =
        state.subscriptionTier !== subscriptionTier ||
        state.subscriptionStatus !== subscriptionStatus ||
        state.maxWebsites !== maxWebsites ||
        state.maxConsentsPerMonth !== maxConsentsPerMonth;
      if (subscriptionChanged) {
        events.push({
          type: 'UserSubscriptionChanged',
          data: { userId, subscriptionTier, subscriptionStatus, maxWebsites, maxConsentsPerMonth, changedAt: now },
        });
      }
      if (state.isActive !== isActive) events.push({ type: 'UserActivationChanged', data: { userId, isActive, changedAt: now } });
      return events;
    }
    case 'ChangeUserName': {
      // Only a registered owner has a name of their own to change; the same name again records nothing.
      if (state.status !== 'registered') throw new UserNotFoundError();
      const { userId, firstName, lastName } = command.data;
      if (state.firstName === firstName && state.lastName === lastName) return [];
      return [{ type: 'UserNameChanged', data: { userId, firstName, lastName, changedAt: now } }];
    }
    case 'ChangeUserEmail': {
      // Only a registered owner signs in with an email of their own; the same email again records nothing.
      if (state.status !== 'registered') throw new UserNotFoundError();
      const { userId, email } = command.data;
      if (state.email === email) return [];
      return [{ type: 'UserEmailChanged', data: { userId, email, changedAt: now } }];
    }
    case 'DeleteUser': {
      if (state.status !== 'invited' && state.status !== 'registered') throw new UserNotFoundError();
      return [{ type: 'UserDeleted', data: { userId: state.userId, deletedAt: now } }];
    }
    default:
      return assertNever(command);
  }
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const { userId, email, firstName, lastName } = event.data;
      if (state.status === 'invited') return { ...state, status: 'registered', email, firstName, lastName };
      // Placeholder limits until the UserSubscriptionChanged that a registration always carries.
      return {
        status: 'registered',
        userId,
        email,
        firstName,
        lastName,
        subscriptionTier: 'free',
        subscriptionStatus: 'active',
        maxWebsites: 0,
        maxConsentsPerMonth: 0,
        isActive: true,
      };
    }
    case 'UserInvited': {
      const { userId, email, subscriptionTier, maxWebsites, maxConsentsPerMonth } = event.data;
      return { status: 'invited', userId, email, subscriptionTier, subscriptionStatus: 'active', maxWebsites, maxConsentsPerMonth, isActive: true };
    }
    case 'UserSubscriptionChanged': {
      if (state.status !== 'invited' && state.status !== 'registered') return state;
      const { subscriptionTier, subscriptionStatus, maxWebsites, maxConsentsPerMonth } = event.data;
      return { ...state, subscriptionTier, subscriptionStatus, maxWebsites, maxConsentsPerMonth };
    }
    case 'UserActivationChanged':
      return state.status === 'invited' || state.status === 'registered' ? { ...state, isActive: event.data.isActive } : state;
    case 'UserNameChanged': {
      if (state.status !== 'registered') return state;
      const { firstName, lastName } = event.data;
      return { ...state, firstName, lastName };
    }
    case 'UserEmailChanged':
      return state.status === 'registered' ? { ...state, email: event.data.email } : state;
    case 'UserDeleted':
      return { status: 'deleted', userId: event.data.userId };
    default:
      return assertNever(event);
  }
}

export const userDecider: StreamDecider<UserCommand, UserEvent, UserState> = {
  eventTypes: userEventTypes,
  decide: decideUser,
  evolve: evolveUser,
  initialState: initialUserState,
};
