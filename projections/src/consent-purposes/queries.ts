// Reads of the consent-purposes read model: acceptance per purpose and the split between Accept All,
// Reject All and choices made purpose by purpose, for one website or all of an owner's.
import { consentMethods, optionalPurposes, type ConsentMethod, type OptionalPurpose } from '@consentry/events';
import type { Queryable } from '@consentry/infra';

export interface PurposeAcceptance {
  readonly purpose: OptionalPurpose;
  /** Choices in which the banner offered the purpose. */
  readonly offered: number;
  readonly granted: number;
  /** granted / offered in percent, one decimal; null when it was never offered. */
  readonly acceptanceRate: number | null;
}

export interface PurposeSummary {
  readonly choices: number;
  readonly byMethod: Readonly<Record<ConsentMethod, number>>;
  readonly purposes: readonly PurposeAcceptance[];
}

export interface PurposeRange {
  /** The websites to sum over. */
  readonly websiteIds: readonly string[];
  /** Inclusive UTC days; null: unbounded. */
  readonly fromDay: string | null;
  readonly toDay: string | null;
}

const sums = optionalPurposes
  .flatMap((purpose) => [`sum(${purpose}_offered)::int8 AS ${purpose}_offered`, `sum(${purpose}_granted)::int8 AS ${purpose}_granted`])
  .join(', ');

/** Choices, per method, and acceptance per purpose over the websites and days of `range`. */
export async function getPurposeSummary(db: Queryable, range: PurposeRange): Promise<PurposeSummary> {
  const { rows } = await db.query<Record<string, number | string>>({
    name: 'get-purpose-summary',
    text: `SELECT method, sum(choices)::int8 AS choices, ${sums}
             FROM consent_purposes_daily
            WHERE website_id = ANY($1::uuid[])
              AND ($2::date IS NULL OR day >= $2::date) AND ($3::date IS NULL OR day <= $3::date)
            GROUP BY method`,
    values: [range.websiteIds, range.fromDay, range.toDay],
  });
  const byMethod = Object.fromEntries(consentMethods.map((method) => [method, 0])) as Record<ConsentMethod, number>;
  const offered = Object.fromEntries(optionalPurposes.map((purpose) => [purpose, 0])) as Record<OptionalPurpose, number>;
  const granted = { ...offered };
  let choices = 0;
  for (const row of rows) {
    const method = row.method as ConsentMethod;
    const count = Number(row.choices);
    choices += count;
    if (method in byMethod) byMethod[method] += count;
    for (const purpose of optionalPurposes) {
      offered[purpose] += Number(row[`${purpose}_offered`]);
      granted[purpose] += Number(row[`${purpose}_granted`]);
    }
  }
  return {
    choices,
    byMethod,
    purposes: optionalPurposes.map((purpose) => ({
      purpose,
      offered: offered[purpose],
      granted: granted[purpose],
      acceptanceRate: offered[purpose] === 0 ? null : Math.round((granted[purpose] / offered[purpose]) * 1000) / 10,
    })),
  };
}
