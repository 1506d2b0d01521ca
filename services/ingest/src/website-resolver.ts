// Embed code → website, on the hot path of every collection request, and a website owner → their
// plan's data types, for the B2B company match. Short-lived in-memory caches keep a flood of requests
// (or of bogus codes) from becoming a flood of queries; a deactivated or removed website therefore
// stops collecting within `ttlMs`, and a plan change applies within the same time.
import { planId as planIdSchema, specResolutionRates, type PlanDataType, type PlanId, type SubscriptionTier } from '@consentry/events';
import { eventColumns, StoreUnavailableError, toStoredEvent, type Db, type EventRow } from '@consentry/infra';
import { getUser, getWebsiteByEmbedCode, type Website } from '@consentry/projections';

export interface OwnerPlan {
  readonly planId: PlanId;
  /** Whose data the plan identifies: `b2b` adds companies matched from the visitor's network. */
  readonly dataTypes: readonly PlanDataType[];
}

export interface WebsiteResolver {
  resolve(embedCode: string): Promise<Website | null>;
  /** The plan a website owner is on now; `free` for an owner who is not (or no longer) an active subscriber. */
  ownerPlan(ownerId: string): Promise<OwnerPlan>;
}

/**
 * The published plan a subscription tier stands for. `starter`, `professional` and `enterprise` are
 * the names the spec's user filter also lists (legacy tiers): they are basic, pro and business.
 */
export function planOfTier(tier: SubscriptionTier): PlanId {
  switch (tier) {
    case 'starter':
      return 'basic';
    case 'professional':
      return 'pro';
    case 'enterprise':
      return 'business';
    case 'free':
    case 'basic':
    case 'pro':
    case 'business':
      return tier;
    default: {
      const unknown: never = tier;
      return planIdSchema.catch('free').parse(unknown);
    }
  }
}

/** The stream plans are published on (services/api/src/plans/catalogue.ts seeds them there). */
const planStreamId = (plan: PlanId) => `plan-${plan}`;

/** A bounded cache of promises, each kept `ttlMs`; failures are not remembered. */
function createCache<T>(ttlMs: number, maxEntries: number, load: (key: string) => Promise<T>) {
  const entries = new Map<string, { value: Promise<T>; expires: number }>();
  return (key: string): Promise<T> => {
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (entries.size >= maxEntries) {
      // Map iteration is insertion order: drop the oldest tenth.
      let drop = Math.ceil(maxEntries / 10);
      for (const old of entries.keys()) {
        entries.delete(old);
        if (--drop === 0) break;
      }
    }
    const value = load(key).catch((error: unknown) => {
      // The database is the ledger: not reaching it is the ledger being unavailable (503).
      throw new StoreUnavailableError('The ledger database cannot be reached', { cause: error });
    });
    entries.set(key, { value, expires: now + ttlMs });
    // A failed lookup must not be remembered.
    value.catch(() => entries.delete(key));
    return value;
  };
}

export function createWebsiteResolver(pool: Db, options: { ttlMs?: number; maxEntries?: number } = {}): WebsiteResolver {
  const ttlMs = options.ttlMs ?? 5_000;
  const maxEntries = options.maxEntries ?? 10_000;

  const websites = createCache(ttlMs, maxEntries, (embedCode) => getWebsiteByEmbedCode(pool, embedCode));

  // The plan as last published (its data types may differ from the spec's); the spec's when none was.
  const plans = createCache(ttlMs, 16, async (plan): Promise<OwnerPlan> => {
    const planId = planIdSchema.parse(plan);
    const { rows } = await pool.query<EventRow>({
      name: 'ingest-latest-plan',
      text: `SELECT ${eventColumns} FROM events
              WHERE stream_id = $1 AND stream_version IS NOT NULL
              ORDER BY stream_version DESC LIMIT 1`,
      values: [planStreamId(planId)],
    });
    const published = rows[0] ? toStoredEvent(rows[0]) : null;
    const dataTypes = published?.type === 'SubscriptionPlanPublished' ? published.data.dataTypes : specResolutionRates[planId].dataTypes;
    return { planId, dataTypes };
  });

  const owners = createCache(ttlMs, maxEntries, async (ownerId): Promise<OwnerPlan> => {
    const owner = await getUser(pool, ownerId);
    const active = owner !== null && owner.isActive && owner.subscriptionStatus === 'active';
    return plans(active ? planOfTier(owner.subscriptionTier) : 'free');
  });

  return { resolve: websites, ownerPlan: owners };
}
