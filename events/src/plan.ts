// The plan stream family: the subscription plans offered on the pricing page and copied into a
// user's limits when an admin picks a tier.
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
import { displayText, isoDateTime, maxConsentsPerMonth, maxWebsites } from './fields';

/** The four published plans (spec section 3); the other tiers exist only on users. */
export const planIds = ['free', 'basic', 'pro', 'business'] as const;
export const planId = z.enum(planIds);
export type PlanId = z.infer<typeof planId>;

/** Whose data a plan identifies: consumers (B2C) and, on the larger plans, businesses (B2B). */
export const planDataTypes = ['b2c', 'b2b'] as const;
export const planDataType = z.enum(planDataTypes);
export type PlanDataType = z.infer<typeof planDataType>;

/** What the spec set before plans carried them (version 1 events): rates in cents per resolution, and data types. */
export const specResolutionRates: Readonly<Record<PlanId, { perResolutionCents: number | null; dataTypes: PlanDataType[] }>> = {
  free: { perResolutionCents: null, dataTypes: ['b2c'] },
  basic: { perResolutionCents: 29, dataTypes: ['b2c'] },
  pro: { perResolutionCents: 25, dataTypes: ['b2b', 'b2c'] },
  business: { perResolutionCents: 20, dataTypes: ['b2b', 'b2c'] },
};

export const SubscriptionPlanPublishedData = z.strictObject({
  planId,
  displayName: displayText(100),
  description: z.string().max(500),
  /** Monthly price in cents; the annual price is derived (10 × monthly). */
  priceCents: z.int().min(0).max(100_000_000),
  maxWebsites,
  maxConsentsPerMonth,
  features: z.array(displayText(200)).max(30),
  /**
   * What one resolution costs (a visitor identified for the first time in a month), in cents; null:
   * the plan does not bill resolutions.
   */
  perResolutionCents: z.int().min(0).max(100_000).nullable(),
  /** B2B adds companies matched from the visitor's network. */
  dataTypes: z.array(planDataType).min(1).max(planDataTypes.length),
  publishedAt: isoDateTime,
});
export type SubscriptionPlanPublishedData = z.infer<typeof SubscriptionPlanPublishedData>;
export const SubscriptionPlanPublished = defineEvent({
  type: 'SubscriptionPlanPublished',
  version: 2,
  category: 'plan',
  schema: SubscriptionPlanPublishedData,
  upcasters: {
    // Version 1 plans had no resolution pricing: the spec's rates and data types stood for them.
    1: (data) => {
      const v1 = data as { planId: PlanId };
      const known = specResolutionRates[v1.planId] ?? { perResolutionCents: null, dataTypes: ['b2c'] };
      return { ...v1, perResolutionCents: known.perResolutionCents, dataTypes: [...known.dataTypes] };
    },
  },
});
export type SubscriptionPlanPublished = EventOf<typeof SubscriptionPlanPublished>;

export type PlanEvent = SubscriptionPlanPublished;
export const planEventTypes = ['SubscriptionPlanPublished'] as const satisfies readonly PlanEvent['type'][];
