// Usage levels of spec sections 4 and 9: below 75% green, 75 to under 90 yellow, 90 and up red; at
// 75% or more of either websites or monthly consents, an alert suggests upgrading.

export type UsageLevel = 'green' | 'yellow' | 'red';

export const usageWarningPercent = 75;
export const usageCriticalPercent = 90;

/** Share of a limit in use, in percent. A zero limit with anything used counts as full. */
export function getUsagePercent(current: number, max: number): number {
  if (max <= 0) return current > 0 ? 100 : 0;
  return (current / max) * 100;
}

export function getUsageLevel(percent: number): UsageLevel {
  if (percent >= usageCriticalPercent) return 'red';
  if (percent >= usageWarningPercent) return 'yellow';
  return 'green';
}

export function needsUsageAlert(...percents: number[]): boolean {
  return percents.some((percent) => percent >= usageWarningPercent);
}

/**
 * What this month's resolutions cost at the plan's rate, in cents; null when the plan bills none
 * (or its rate is unknown), so no price is shown that the plan does not charge.
 */
export function getResolutionCostCents(resolutions: number, perResolutionCents: number | null | undefined): number | null {
  if (perResolutionCents === null || perResolutionCents === undefined) return null;
  return resolutions * perResolutionCents;
}
