// The plan decider as given / when / then: each definition of a plan is published once, however
// often the catalogue is seeded, and a changed definition is published again.
import { describe, it } from 'vitest';
import { exampleEventData } from './examples';
import type { PlanEvent } from './plan';
import { planDecider, type PlanDefinition, type PublishPlan } from './plan-decider';
import { deciderSpec } from './testing/decider-spec';

const { given, when } = deciderSpec(planDecider);
const now = '2024-05-01T10:00:00.000Z';
const { publishedAt: _publishedAt, ...pro } = exampleEventData.SubscriptionPlanPublished;
const publish = (definition: PlanDefinition): PublishPlan => ({ type: 'PublishPlan', data: definition, metadata: { now } });
const published = (definition: PlanDefinition, at = '2024-01-01T00:00:00.000Z'): PlanEvent => ({
  type: 'SubscriptionPlanPublished',
  data: { ...definition, publishedAt: at },
});

describe('when the plan was never published', () => {
  it('publishes the definition', () => {
    when(publish(pro)).then([published(pro, now)]);
  });
});

describe('when the plan was published', () => {
  it('publishes nothing for the same definition, whatever the order of its fields', () => {
    const reordered = Object.fromEntries(Object.entries(pro).reverse()) as PlanDefinition;
    given([published(pro)]).when(publish(reordered)).then([]);
  });

  it('publishes a changed definition', () => {
    const cheaper = { ...pro, priceCents: pro.priceCents - 100 };
    given([published(pro)]).when(publish(cheaper)).then([published(cheaper, now)]);
  });

  it('publishes nothing for a definition it had before, even after another', () => {
    given([published(pro), published({ ...pro, priceCents: 1 })]).when(publish(pro)).then([]);
  });
});
