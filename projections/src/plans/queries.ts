// Reads of the subscription-plans read model.
import type { PlanId } from '@consentry/events';
import type { Queryable } from '@consentry/infra';

export interface SubscriptionPlan {
  readonly id: PlanId;
  readonly displayName: string;
  readonly description: string;
  /** Monthly price in cents. */
  readonly priceCents: number;
  readonly maxWebsites: number;
  readonly maxConsentsPerMonth: number;
  readonly features: readonly string[];
}

interface PlanRow {
  id: PlanId;
  display_name: string;
  description: string;
  price_cents: number;
  max_websites: number;
  max_consents_per_month: number;
  features: string[];
}

const toPlan = (row: PlanRow): SubscriptionPlan => ({
  id: row.id,
  displayName: row.display_name,
  description: row.description,
  priceCents: row.price_cents,
  maxWebsites: row.max_websites,
  maxConsentsPerMonth: row.max_consents_per_month,
  features: row.features,
});

/** Every published plan, cheapest first. */
export async function listSubscriptionPlans(db: Queryable): Promise<SubscriptionPlan[]> {
  const { rows } = await db.query<PlanRow>({
    name: 'list-subscription-plans',
    text: 'SELECT id, display_name, description, price_cents, max_websites, max_consents_per_month, features FROM subscription_plans ORDER BY price_cents, id',
  });
  return rows.map(toPlan);
}

export async function getSubscriptionPlan(db: Queryable, planId: string): Promise<SubscriptionPlan | null> {
  const { rows } = await db.query<PlanRow>({
    name: 'get-subscription-plan',
    text: 'SELECT id, display_name, description, price_cents, max_websites, max_consents_per_month, features FROM subscription_plans WHERE id = $1',
    values: [planId],
  });
  return rows[0] ? toPlan(rows[0]) : null;
}
