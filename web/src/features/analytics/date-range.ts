// The analytics date range: inclusive UTC days as `YYYY-MM-DD`, the api's query format. The default
// is the last 30 days, today included (spec sections 5 and 9); the api allows at most 366 days.

export interface DateRange {
  startDate: string;
  endDate: string;
}

export const defaultRangeDays = 30;
export const maxRangeDays = 366;
export const rangePresets = [7, 30, 90] as const;

const dayMs = 86_400_000;
const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** Today as a UTC day: analytics days are UTC days of the server's receive time. */
export function todayUtc(now: number = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The `days` UTC days ending today. */
export function lastDaysRange(days: number, now: number = Date.now()): DateRange {
  const endDate = todayUtc(now);
  const startDate = new Date(Date.parse(endDate) - (days - 1) * dayMs).toISOString().slice(0, 10);
  return { startDate, endDate };
}

/** Days in the range, both ends included; NaN when a date is not a valid day. */
export function rangeLength(range: DateRange): number {
  if (!isoDay.test(range.startDate) || !isoDay.test(range.endDate)) return Number.NaN;
  return (Date.parse(range.endDate) - Date.parse(range.startDate)) / dayMs + 1;
}

/** Why the range cannot be asked for, or null when it can. */
export function getRangeProblem(range: DateRange): string | null {
  if (!range.startDate || !range.endDate) return 'Choose a start and an end date.';
  const days = rangeLength(range);
  if (Number.isNaN(days)) return 'Enter dates as YYYY-MM-DD.';
  if (days < 1) return 'The start date must not be after the end date.';
  if (days > maxRangeDays) return `Choose a range of at most ${maxRangeDays} days.`;
  return null;
}

/** Which preset the range is, if any: the last 7, 30 or 90 days. */
export function getPresetOf(range: DateRange, now: number = Date.now()): number | null {
  if (range.endDate !== todayUtc(now)) return null;
  return rangePresets.find((days) => rangeLength(range) === days) ?? null;
}

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** `Oct 23, 2026 – Nov 21, 2026`. */
export function formatRange(range: DateRange): string {
  const format = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
  return range.startDate === range.endDate ? format(range.startDate) : `${format(range.startDate)} – ${format(range.endDate)}`;
}
