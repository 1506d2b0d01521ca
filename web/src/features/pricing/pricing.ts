// Pricing rules of spec section 9: prices are monthly cents; the annual price is ten months (two
// free) and its savings are measured against twelve monthly payments. Per-resolution rates and data
// types come from the plan catalogue (GET /api/subscription-plans), never from the app itself.
import type { PlanDataType, SubscriptionPlan } from '../subscription/queries';

export type BillingPeriod = 'monthly' | 'annual';

export const annualBillingMonths = 10;
export const monthsPerYear = 12;
export const shownFeatureCount = 4;
export const featuredPlanName = 'pro';

export function getPlanPriceCents(monthlyCents: number, period: BillingPeriod): number {
  return period === 'annual' ? monthlyCents * annualBillingMonths : monthlyCents;
}

export function getAnnualSavingsCents(monthlyCents: number): number {
  return monthlyCents * monthsPerYear - monthlyCents * annualBillingMonths;
}

const dataTypeLabels: Record<PlanDataType, string> = { b2b: 'B2B', b2c: 'B2C' };

/** `B2C`, or `B2B and B2C` (B2B first, as the spec writes it); null when the plan names none. */
export function formatDataTypes(dataTypes: readonly string[] | undefined): string | null {
  const known = (['b2b', 'b2c'] as const).filter((type) => dataTypes?.includes(type));
  return known.length === 0 ? null : known.map((type) => dataTypeLabels[type]).join(' and ');
}

/** `$0.29 per resolution`; null for a plan that bills no resolutions. */
export function formatPerResolution(perResolutionCents: number | null | undefined): string | null {
  if (perResolutionCents === null || perResolutionCents === undefined) return null;
  return `${formatPerResolutionPrice(perResolutionCents)} per resolution`;
}

/** Cents as dollars with two decimals, as rates are quoted: `$0.29`, `$0.20`, `$1.00`. */
export function formatPerResolutionPrice(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(cents / 100);
}

export function sortPlansByPrice(plans: SubscriptionPlan[]): SubscriptionPlan[] {
  return [...plans].sort((a, b) => a.price - b.price);
}
