// Managed users and the plans admins can assign (admin-only endpoints).
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ApiSchemas } from '../../lib/api-types';
import type { SubscriptionPlan } from '../subscription/queries';

/** `status` invited: has not completed sign-up yet; `currentMonthConsents` this calendar month (UTC), and whether that is past `maxConsentsPerMonth`. */
export type ManagedUser = ApiSchemas['ManagedUser'];

export type SubscriptionTier = ManagedUser['subscriptionTier'];
export type SubscriptionStatus = ManagedUser['subscriptionStatus'];

/** Tiers of spec section 3: the four plans plus the three the tier filter also lists. */
export const subscriptionTiers = ['free', 'basic', 'pro', 'business', 'starter', 'professional', 'enterprise'] as const satisfies readonly SubscriptionTier[];
export const subscriptionStatuses = ['active', 'cancelled', 'expired'] as const satisfies readonly SubscriptionStatus[];

/**
 * What the invite form starts with: the free tier (spec sections 5 and 9) on the free plan's limits,
 * as a self-signed-up owner starts; the api's own fallback when no plan is published yet.
 */
export function getInviteDefaults(plans: readonly SubscriptionPlan[]) {
  const freeTier: SubscriptionTier = 'free';
  const free = plans.find((plan) => plan.name === freeTier);
  return { subscriptionTier: freeTier, maxWebsites: free?.maxWebsites ?? 1, maxConsentsPerMonth: free?.maxConsentsPerMonth ?? 10_000 };
}

export function managedUsersQueryOptions() {
  return queryOptions({
    queryKey: ['users'],
    queryFn: () => getJson<ManagedUser[]>('/api/admin/users'),
  });
}

export function adminSubscriptionPlansQueryOptions() {
  return queryOptions({
    queryKey: ['subscription-plans', 'admin'],
    queryFn: () => getJson<SubscriptionPlan[]>('/api/admin/subscription-plans'),
  });
}

/** A tier as people read it: its plan's display name, else the tier capitalised ('enterprise' → 'Enterprise'). */
export function getTierLabel(tier: string, plans: readonly SubscriptionPlan[]): string {
  return plans.find((plan) => plan.name === tier)?.displayName ?? tier.charAt(0).toUpperCase() + tier.slice(1);
}

export function getUserDisplayName(user: Pick<ManagedUser, 'firstName' | 'lastName' | 'email'>): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || user.email || 'Unnamed user';
}
