// Trend badges computed from data (the spec's hard-coded +12% etc. replaced by the real thing): the
// last 7 days against the 7 before, from the daily consent counts, and websites added this month.
import { formatNumber } from '../../lib/format';
import type { DailyConsents } from '../stats/queries';
import type { Website } from '../websites/queries';

export const trendPeriodDays = 7;
const dayMs = 24 * 60 * 60 * 1000;

export type TrendTone = 'positive' | 'negative' | 'neutral';
/** Which way the number went; separate from the tone, since fewer declines are good news. */
export type TrendDirection = 'up' | 'down' | 'flat';

export interface Trend {
  label: string;
  tone: TrendTone;
  direction: TrendDirection;
}

interface WindowTotals {
  accepted: number;
  declined: number;
  total: number;
}

function toUtcDateKey(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** One entry per day for the `days` days ending today (UTC), missing days filled with zeros. */
export function buildDailySeries(daily: DailyConsents[], days: number, now: number): DailyConsents[] {
  const byDate = new Map(daily.map((day) => [day.date.slice(0, 10), day]));
  const series: DailyConsents[] = [];
  for (let offset = days - 1; offset >= 0; offset--) {
    const date = toUtcDateKey(now - offset * dayMs);
    const day = byDate.get(date);
    series.push({ date, accepted: day?.accepted ?? 0, declined: day?.declined ?? 0 });
  }
  return series;
}

function sumWindow(series: DailyConsents[]): WindowTotals {
  const accepted = series.reduce((sum, day) => sum + day.accepted, 0);
  const declined = series.reduce((sum, day) => sum + day.declined, 0);
  return { accepted, declined, total: accepted + declined };
}

/** Totals of the last 7 days and of the 7 days before them. */
export function getTrendWindows(daily: DailyConsents[], now: number): { current: WindowTotals; previous: WindowTotals } {
  const series = buildDailySeries(daily, trendPeriodDays * 2, now);
  return {
    previous: sumWindow(series.slice(0, trendPeriodDays)),
    current: sumWindow(series.slice(trendPeriodDays)),
  };
}

function signed(value: number, digits: number): string {
  const rounded = value.toFixed(digits);
  return value > 0 ? `+${rounded}` : rounded;
}

/** Percent change of a count; `higherIsBetter` decides whether a rise is shown as good news. */
export function getCountTrend(current: number, previous: number, higherIsBetter: boolean): Trend {
  if (previous === 0) {
    if (current === 0) return { label: 'No change vs previous 7 days', tone: 'neutral', direction: 'flat' };
    return { label: `${formatNumber(current)} in the last 7 days`, tone: higherIsBetter ? 'positive' : 'negative', direction: 'up' };
  }
  const change = ((current - previous) / previous) * 100;
  if (Math.abs(change) < 0.05) return { label: 'No change vs previous 7 days', tone: 'neutral', direction: 'flat' };
  const rose = change > 0;
  return {
    label: `${signed(change, 1)}% vs previous 7 days`,
    tone: rose === higherIsBetter ? 'positive' : 'negative',
    direction: rose ? 'up' : 'down',
  };
}

/** Change of the acceptance rate in percentage points between the two windows. */
export function getRateTrend(current: WindowTotals, previous: WindowTotals): Trend {
  if (current.total === 0 || previous.total === 0) return { label: 'Not enough data to compare', tone: 'neutral', direction: 'flat' };
  const change = (current.accepted / current.total) * 100 - (previous.accepted / previous.total) * 100;
  if (Math.abs(change) < 0.05) return { label: 'No change vs previous 7 days', tone: 'neutral', direction: 'flat' };
  return {
    label: `${signed(change, 1)} pts vs previous 7 days`,
    tone: change > 0 ? 'positive' : 'negative',
    direction: change > 0 ? 'up' : 'down',
  };
}

/** Websites created in the current calendar month (local time). */
export function getNewWebsitesTrend(websites: Website[], now: number): Trend {
  const today = new Date(now);
  const added = websites.filter((website) => {
    const created = new Date(website.createdAt);
    return created.getFullYear() === today.getFullYear() && created.getMonth() === today.getMonth();
  }).length;
  if (added === 0) return { label: 'No new websites this month', tone: 'neutral', direction: 'flat' };
  return { label: `+${added} new this month`, tone: 'positive', direction: 'up' };
}
