// The plan stream family: the subscription plans offered on the pricing page and copied into a
// user's limits when an admin picks a tier.
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
import { displayText, isoDateTime, maxConsentsPerMonth, maxWebsites } from './fields';

/** The four published plans (spec section 3); the other tiers exist only on users. */
export const planIds = ['free', 'basic', 'pro', 'business'] as const;
export const planId = z.enum(planIds);
export type PlanId = z.infer<typeof planId>;

export const SubscriptionPlanPublishedData = z.strictObject({
  planId,
  displayName: displayText(100),
  description: z.string().max(500),
  /** Monthly price in cents; the annual price is derived (10 × monthly). */
  priceCents: z.int().min(0).max(100_000_000),
  maxWebsites,
  maxConsentsPerMonth,
  features: z.array(displayText(200)).max(30),
  publishedAt: isoDateTime,
});
export type SubscriptionPlanPublishedData = z.infer<typeof SubscriptionPlanPublishedData>;
export const SubscriptionPlanPublished = defineEvent({
  type: 'SubscriptionPlanPublished',
  version: 1,
  category: 'plan',
  schema: SubscriptionPlanPublishedData,
});
export type SubscriptionPlanPublished = EventOf<typeof SubscriptionPlanPublished>;

export type PlanEvent = SubscriptionPlanPublished;
export const planEventTypes = ['SubscriptionPlanPublished'] as const satisfies readonly PlanEvent['type'][];
