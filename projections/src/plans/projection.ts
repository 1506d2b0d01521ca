// Subscription plans as last published: what the pricing page lists and what a tier's limits are.
// Inline, so plans seeded at start are readable as soon as the seeding append returns.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export const plansProjection: Projection = {
  name: 'subscription-plans',
  canHandle: ['SubscriptionPlanPublished'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      if (event.type !== 'SubscriptionPlanPublished') continue;
      const { planId, displayName, description, priceCents, maxWebsites, maxConsentsPerMonth, features, publishedAt } = event.data;
      await tx.query({
        name: 'plans-publish',
        text: `INSERT INTO subscription_plans (id, display_name, description, price_cents, max_websites,
                                               max_consents_per_month, features, published_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
               ON CONFLICT (id) DO UPDATE
                 SET display_name = $2, description = $3, price_cents = $4, max_websites = $5,
                     max_consents_per_month = $6, features = $7, published_at = $8`,
        values: [planId, displayName, description, priceCents, maxWebsites, maxConsentsPerMonth, JSON.stringify(features), publishedAt],
      });
    }
  },

  tables: ['subscription_plans'],
};
