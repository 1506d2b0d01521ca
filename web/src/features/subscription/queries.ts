// Plans (public) and the signed-in owner's usage against their plan's limits.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ApiSchemas } from '../../lib/api-types';

/** `price` monthly, in cents; `perResolutionCents` null: not billed; `dataTypes` whose data the plan identifies. */
export type SubscriptionPlan = ApiSchemas['SubscriptionPlan'];
export type PlanDataType = SubscriptionPlan['dataTypes'][number];
/** `consentQuotaExceeded`: more consents this month than the plan allows; all are still recorded and counted. */
export type SubscriptionUsage = ApiSchemas['SubscriptionUsage'];

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
