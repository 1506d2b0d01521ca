// Plans (public) and the signed-in owner's usage against their plan's limits.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';

export interface SubscriptionPlan {
  id: string;
  name: string;
  displayName: string;
  description?: string | null;
  /** Monthly price in cents. */
  price: number;
  maxWebsites: number;
  maxConsentsPerMonth: number;
  features: string[];
}

export interface SubscriptionUsage {
  user: { maxWebsites: number; maxConsentsPerMonth: number; subscriptionStatus?: string | null };
  subscriptionPlan?: { displayName: string; price: number; features: string[] } | null;
  currentWebsites: number;
  currentMonthConsents: number;
  /** More consents this month than the plan allows: all are still recorded and counted. */
  consentQuotaExceeded?: boolean;
}

export function subscriptionPlansQueryOptions() {
  return queryOptions({
    queryKey: ['subscription-plans'],
    queryFn: () => getJson<SubscriptionPlan[]>('/api/subscription-plans'),
  });
}

export function subscriptionUsageQueryOptions() {
  return queryOptions({
    queryKey: ['subscription', 'usage'],
    queryFn: () => getJson<SubscriptionUsage>('/api/subscription/usage'),
  });
}
