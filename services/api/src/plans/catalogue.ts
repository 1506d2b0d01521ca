// The plans this installation offers, published as SubscriptionPlanPublished events at start. Each
// definition has an event id derived from its content, so seeding the same plans again (every start,
// every instance) stores nothing, and a changed definition is published once as a new event.
import { createHash } from 'node:crypto';
import type { PlanId, SubscriptionPlanPublishedData } from '@consentry/events';
import { appendToStream, type Db } from '@consentry/infra';
import { inlineProjections } from '@consentry/projections';

export type PlanDefinition = Omit<SubscriptionPlanPublishedData, 'publishedAt'>;

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

/** A UUID (version 5 layout) from the definition's content: same content, same event id. */
export function planEventId(definition: PlanDefinition): string {
  const digest = createHash('sha256').update(`consentry-plan:${JSON.stringify(definition)}`).digest();
  digest[6] = (digest[6]! & 0x0f) | 0x50;
  digest[8] = (digest[8]! & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const planStreamId = (planId: PlanId) => `plan-${planId}`;

/** Publishes every plan whose definition is not yet in the log; idempotent and safe to race. */
export async function seedSubscriptionPlans(pool: Db, catalogue: readonly PlanDefinition[] = planCatalogue): Promise<void> {
  const publishedAt = new Date().toISOString();
  for (const definition of catalogue) {
    await appendToStream(
      pool,
      planStreamId(definition.planId),
      [{ type: 'SubscriptionPlanPublished', eventId: planEventId(definition), data: { ...definition, publishedAt }, metadata: { actor: 'system' } }],
      // Whole definitions replace each other: the latest published wins, whatever the version.
      { expectedVersion: 'any', inlineProjections },
    );
  }
}
