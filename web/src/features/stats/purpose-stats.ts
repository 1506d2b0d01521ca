// What the 'Consent by purpose' card shows, worked out from GET /api/stats/purposes: a row per
// purpose in the canonical order, and the split of the choices by how they were made. Accept All,
// Reject All and Customized are always listed; GPC and a regional default only when they happened.
import { consentMethodLabels, optionalPurposes, purposeLabels, type ConsentMethod, type OptionalPurpose } from '../../lib/purposes';
import type { PurposeStats } from './queries';

export interface PurposeRow {
  purpose: OptionalPurpose;
  label: string;
  offered: number;
  granted: number;
  /** Percent; null when no banner asked for the purpose. */
  rate: number | null;
}

export interface MethodShare {
  method: ConsentMethod;
  label: string;
  count: number;
  /** Percent of all choices. */
  share: number;
}

const alwaysListed: readonly ConsentMethod[] = ['accept_all', 'reject_all', 'custom'];
const listedWhenUsed: readonly ConsentMethod[] = ['gpc', 'jurisdiction_default'];

export const methodColors: Record<ConsentMethod, string> = {
  accept_all: '#16a34a',
  reject_all: '#dc2626',
  custom: '#2563eb',
  gpc: '#a855f7',
  jurisdiction_default: '#94a3b8',
};

/** One row per optional purpose, in the canonical order, whether or not the answer names it. */
export function getPurposeRows(stats: PurposeStats): PurposeRow[] {
  const byPurpose = new Map(stats.purposes.map((item) => [item.purpose, item]));
  return optionalPurposes.map((purpose) => {
    const item = byPurpose.get(purpose);
    const offered = item?.offered ?? 0;
    return {
      purpose,
      label: purposeLabels[purpose],
      offered,
      granted: item?.granted ?? 0,
      rate: offered > 0 ? (item?.acceptanceRate ?? ((item?.granted ?? 0) / offered) * 100) : null,
    };
  });
}

/** The choices by method, each with its share of all of them. */
export function getMethodShares(stats: PurposeStats): MethodShare[] {
  const total = stats.choices;
  const count = (method: ConsentMethod) => stats.byMethod[method] ?? 0;
  return [...alwaysListed, ...listedWhenUsed.filter((method) => count(method) > 0)].map((method) => ({
    method,
    label: consentMethodLabels[method],
    count: count(method),
    share: total > 0 ? (count(method) / total) * 100 : 0,
  }));
}
