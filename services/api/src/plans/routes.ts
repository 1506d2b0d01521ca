// The subscription plans: public for the pricing page, and the same list for admins' tier choices.
import { planDataType, specResolutionRates, type PlanDataType, type PlanId } from '@consentry/events';
import type { Db } from '@consentry/infra';
import { listSubscriptionPlans, type SubscriptionPlan } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorsFor } from '../schemas';
import { planCatalogue } from './catalogue';

const planAnswer = z
  .object({
    id: z.string(),
    name: z.string(),
    displayName: z.string(),
    description: z.string(),
    price: z.int().meta({ description: 'Monthly price in cents' }),
    maxWebsites: z.int(),
    maxConsentsPerMonth: z.int(),
    features: z.array(z.string()),
    perResolutionCents: z.int().nullable().meta({ description: 'What one resolution (a person first identified on a website in a UTC month, counted once however often they identify) costs, in cents; null: not billed' }),
    dataTypes: z.array(planDataType).meta({ description: "Whose data the plan identifies: 'b2c' (people), and 'b2b' (companies from the visitor's network) on the larger plans" }),
  })
  .meta({ id: 'SubscriptionPlan' });

/**
 * A plan's resolution rate and data types. The catalogue is what every start publishes (the read
 * model keeps no column for them yet); a plan published before they existed has the spec's.
 */
export function resolutionTermsOf(planId: string): { perResolutionCents: number | null; dataTypes: PlanDataType[] } {
  const published = planCatalogue.find((plan) => plan.planId === planId);
  const known = published ?? specResolutionRates[planId as PlanId];
  return known ? { perResolutionCents: known.perResolutionCents, dataTypes: [...known.dataTypes] } : { perResolutionCents: null, dataTypes: ['b2c'] };
}

const toPlanAnswer = (plan: SubscriptionPlan): z.infer<typeof planAnswer> => ({
  id: plan.id,
  name: plan.id,
  displayName: plan.displayName,
  description: plan.description,
  price: plan.priceCents,
  maxWebsites: plan.maxWebsites,
  maxConsentsPerMonth: plan.maxConsentsPerMonth,
  features: [...plan.features],
  ...resolutionTermsOf(plan.id),
});

export const planRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  app.get(
    '/api/subscription-plans',
    { config: { access: 'public' }, schema: { tags: ['subscription'], summary: 'The published plans, cheapest first', response: { 200: z.array(planAnswer) } } },
    async () => (await listSubscriptionPlans(pool)).map(toPlanAnswer),
  );

  app.get(
    '/api/admin/subscription-plans',
    {
      config: { access: 'admin' },
      schema: { tags: ['admin'], summary: 'The published plans (admins)', response: { 200: z.array(planAnswer), ...errorsFor(401, 403) } },
    },
    async () => (await listSubscriptionPlans(pool)).map(toPlanAnswer),
  );
};
