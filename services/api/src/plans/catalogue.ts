// The plans this installation offers, published as SubscriptionPlanPublished events at start. The
// plan decider publishes each definition once, so seeding the same plans again (every start, every
// instance) stores nothing, and a changed definition is published once as a new event.
import { planDecider, planStreamId, type PlanDefinition } from '@consentry/events';
import type { Db } from '@consentry/infra';
import { handleApiCommand } from '../domain/commands';

export type { PlanDefinition };

/**
 * Spec sections 3 and 9: prices in cents; the free plan allows up to 10,000 consents a month; per
 * resolution rates basic $0.29, pro $0.25, business $0.20; free and basic are B2C data only.
 */
export const planCatalogue: readonly PlanDefinition[] = [
  {
    planId: 'free',
    displayName: 'Free',
    description: 'For trying Consentry on one website.',
    priceCents: 0,
    maxWebsites: 1,
    maxConsentsPerMonth: 10_000,
    perResolutionCents: null,
    dataTypes: ['b2c'],
    features: ['1 website', 'Up to 10,000 consents per month', 'B2C data', 'Customizable consent banner', 'CSV and JSON export'],
  },
  {
    planId: 'basic',
    displayName: 'Basic',
    description: 'For small businesses with a few websites.',
    priceCents: 1_900,
    maxWebsites: 3,
    maxConsentsPerMonth: 50_000,
    perResolutionCents: 29,
    dataTypes: ['b2c'],
    features: ['Up to 3 websites', '50,000 consents per month', 'B2C data', '$0.29 per resolution', 'Analytics and recommendations', 'Email support'],
  },
  {
    planId: 'pro',
    displayName: 'Pro',
    description: 'For growing businesses with several websites.',
    priceCents: 4_900,
    maxWebsites: 10,
    maxConsentsPerMonth: 100_000,
    perResolutionCents: 25,
    dataTypes: ['b2b', 'b2c'],
    features: ['Up to 10 websites', '100,000 consents per month', 'B2B and B2C data', '$0.25 per resolution', 'Guided setup', 'Priority support'],
  },
  {
    planId: 'business',
    displayName: 'Business',
    description: 'For agencies and companies running many websites.',
    priceCents: 14_900,
    maxWebsites: 50,
    maxConsentsPerMonth: 500_000,
    perResolutionCents: 20,
    dataTypes: ['b2b', 'b2c'],
    features: ['Up to 50 websites', '500,000 consents per month', 'B2B and B2C data', '$0.20 per resolution', 'Guided setup', 'Dedicated support'],
  },
];

/** Publishes every plan whose definition is not yet in the log; idempotent and safe to race. */
export async function seedSubscriptionPlans(pool: Db, catalogue: readonly PlanDefinition[] = planCatalogue): Promise<void> {
  const now = new Date().toISOString();
  for (const definition of catalogue) {
    await handleApiCommand(
      pool,
      planStreamId(definition.planId),
      planDecider,
      { type: 'PublishPlan', data: definition, metadata: { now } },
      // Another instance seeding at the same time: read again, and find the definition published.
      { metadata: { actor: 'system' }, retriesOnConflict: 3 },
    );
  }
}
