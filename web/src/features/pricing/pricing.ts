// Pricing rules of spec section 9: prices are monthly cents; the annual price is ten months (two
// free) and its savings are measured against twelve monthly payments.
import type { SubscriptionPlan } from '../subscription/queries';

export type BillingPeriod = 'monthly' | 'annual';

export const annualBillingMonths = 10;
export const monthsPerYear = 12;
export const shownFeatureCount = 4;
export const featuredPlanName = 'pro';

/** Price per resolved (identified) visitor, in dollars, for the plans that charge one. */
export const perResolutionRates: Record<string, number> = { basic: 0.29, pro: 0.25, business: 0.2 };

export function getPlanPriceCents(monthlyCents: number, period: BillingPeriod): number {
  return period === 'annual' ? monthlyCents * annualBillingMonths : monthlyCents;
}

export function getAnnualSavingsCents(monthlyCents: number): number {
  return monthlyCents * monthsPerYear - monthlyCents * annualBillingMonths;
}

/** Free and basic serve consumers only; the larger plans add business contacts. */
export function getDataTypes(planName: string): string {
  return planName === 'free' || planName === 'basic' ? 'B2C' : 'B2B and B2C';
}

export function sortPlansByPrice(plans: SubscriptionPlan[]): SubscriptionPlan[] {
  return [...plans].sort((a, b) => a.price - b.price);
}
