// The subscription plans: public for the pricing page, and the same list for admins' tier choices.
import type { Db } from '@consentry/infra';
import { listSubscriptionPlans, type SubscriptionPlan } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from '../auth/viewer';
import { errorsFor } from '../schemas';

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
  })
  .meta({ id: 'SubscriptionPlan' });

const toPlanAnswer = (plan: SubscriptionPlan): z.infer<typeof planAnswer> => ({
  id: plan.id,
  name: plan.id,
  displayName: plan.displayName,
  description: plan.description,
  price: plan.priceCents,
  maxWebsites: plan.maxWebsites,
  maxConsentsPerMonth: plan.maxConsentsPerMonth,
  features: [...plan.features],
});

export const planRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  app.get(
    '/api/subscription-plans',
    { schema: { tags: ['subscription'], summary: 'The published plans, cheapest first', response: { 200: z.array(planAnswer) } } },
    async () => (await listSubscriptionPlans(pool)).map(toPlanAnswer),
  );

  app.get(
    '/api/admin/subscription-plans',
    { schema: { tags: ['admin'], summary: 'The published plans (admins)', response: { 200: z.array(planAnswer), ...errorsFor(401, 403) } } },
    async (request) => {
      await requireAdmin(pool, request);
      return (await listSubscriptionPlans(pool)).map(toPlanAnswer);
    },
  );
};
