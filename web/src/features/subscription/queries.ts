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
  /** What one resolution (a visitor identified for the first time in a month) costs, in cents; null: not billed. */
  perResolutionCents?: number | null;
  /** Whose data the plan identifies: consumers (b2c) and, on the larger plans, businesses (b2b). */
  dataTypes?: PlanDataType[];
}

export type PlanDataType = 'b2b' | 'b2c';

export interface SubscriptionUsage {
  user: { maxWebsites: number; maxConsentsPerMonth: number; subscriptionStatus?: string | null };
  subscriptionPlan?: { displayName: string; price: number; features: string[]; perResolutionCents?: number | null } | null;
  currentWebsites: number;
  currentMonthConsents: number;
  /** Visitors identified for the first time this month (UTC), each billed at the plan's rate. */
  resolutionsThisMonth?: number;
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
