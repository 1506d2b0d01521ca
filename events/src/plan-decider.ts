// The decider of a plan stream (`plan-<planId>`): publishing a plan's definition at start. Each
// definition is published once: seeding the same catalogue again (every start, every instance)
// decides nothing, and a changed definition is published as a new event.
import { assertNever, type CommandMetadata, type StreamDecider } from './decider';
import type { PlanEvent, PlanId, SubscriptionPlanPublishedData } from './plan';

export type PlanDefinition = Omit<SubscriptionPlanPublishedData, 'publishedAt'>;

export const planStreamId = (planId: PlanId): string => `plan-${planId}`;

export interface PublishPlan {
  readonly type: 'PublishPlan';
  readonly data: PlanDefinition;
  readonly metadata: CommandMetadata;
}

export type PlanCommand = PublishPlan;

/** The definitions published on the stream, each as its canonical text. */
export interface PlanState {
  readonly published: ReadonlySet<string>;
}

/** The same definition gives the same text, whatever the order of its keys (the log stores jsonb). */
function canonicalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, field]) => field !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalText(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const definitionText = ({ publishedAt: _publishedAt, ...definition }: SubscriptionPlanPublishedData | (PlanDefinition & { publishedAt?: string })) =>
  canonicalText(definition);

export function decidePlan(command: PlanCommand, state: PlanState): PlanEvent[] {
  switch (command.type) {
    case 'PublishPlan':
      if (state.published.has(definitionText(command.data))) return [];
      return [{ type: 'SubscriptionPlanPublished', data: { ...command.data, publishedAt: command.metadata.now } }];
    default:
      return assertNever(command.type);
  }
}

export function evolvePlan(state: PlanState, event: PlanEvent): PlanState {
  switch (event.type) {
    case 'SubscriptionPlanPublished':
      return { published: new Set([...state.published, definitionText(event.data)]) };
    default:
      return assertNever(event.type);
  }
}

export const planDecider: StreamDecider<PlanCommand, PlanEvent, PlanState> = {
  eventTypes: ['SubscriptionPlanPublished'],
  decide: decidePlan,
  evolve: evolvePlan,
  initialState: () => ({ published: new Set() }),
};
