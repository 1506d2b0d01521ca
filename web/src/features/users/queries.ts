// Managed users and the plans admins can assign (admin-only endpoints).
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { SubscriptionPlan } from '../subscription/queries';

export interface ManagedUser {
  id: string;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  profileImageUrl?: string | null;
  /** invited: has not completed sign-up yet. */
  status?: 'invited' | 'registered';
  subscriptionTier: string;
  subscriptionStatus: string;
  maxWebsites: number;
  maxConsentsPerMonth: number;
  isActive: boolean;
  websiteCount: number;
  consentCount: number;
  /** Consents this calendar month (UTC), and whether that is past maxConsentsPerMonth. */
  currentMonthConsents?: number;
  consentQuotaExceeded?: boolean;
  lastActivity?: string | null;
}

/** Tiers of spec section 3: the four plans plus the three the tier filter also lists. */
export const subscriptionTiers = ['free', 'basic', 'pro', 'business', 'starter', 'professional', 'enterprise'] as const;
export const subscriptionStatuses = ['active', 'cancelled', 'expired'] as const;

/**
 * What the invite form starts with: the free tier (spec sections 5 and 9) on the free plan's limits,
 * as a self-signed-up owner starts; the api's own fallback when no plan is published yet.
 */
export function getInviteDefaults(plans: readonly SubscriptionPlan[]) {
  const free = plans.find((plan) => plan.name === 'free');
  return { subscriptionTier: 'free', maxWebsites: free?.maxWebsites ?? 1, maxConsentsPerMonth: free?.maxConsentsPerMonth ?? 10_000 };
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
