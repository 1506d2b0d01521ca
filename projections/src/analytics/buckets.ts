// Day buckets of the rolled-up analytics tables (analytics_pages, analytics_referrers). Their keys
// are open-ended (every path, every referrer domain), so a row per key per day makes a 90-day query
// read tens of thousands of rows. Each count is also stored for its 7-day and 28-day block (aligned
// to 1970-01-01), and a range is read as the few buckets that exactly cover it: at most about 20
// for 90 days instead of 90.
const dayMs = 86_400_000;

/** Bucket sizes in days, largest first. */
export const bucketSpans = [28, 7, 1] as const;
export type BucketSpan = (typeof bucketSpans)[number];

export interface DayBucket {
  readonly span: BucketSpan;
  /** First day of the bucket, `YYYY-MM-DD`. */
  readonly firstDay: string;
}

export const epochDayOf = (day: string): number => Math.floor(Date.parse(`${day}T00:00:00.000Z`) / dayMs);
export const dayOfEpochDay = (epochDay: number): string => new Date(epochDay * dayMs).toISOString().slice(0, 10);
const blockStart = (epochDay: number, span: number) => epochDay - (((epochDay % span) + span) % span);

/** The buckets a count of `day` is added to: one per span. */
export function bucketsOfDay(day: string): DayBucket[] {
  const epochDay = epochDayOf(day);
  return bucketSpans.map((span) => ({ span, firstDay: dayOfEpochDay(blockStart(epochDay, span)) }));
}

/** Disjoint buckets whose days are exactly `fromDay`..`toDay` (inclusive); empty when from > to. */
export function coverRange(fromDay: string, toDay: string): DayBucket[] {
  const last = epochDayOf(toDay);
  const buckets: DayBucket[] = [];
  let day = epochDayOf(fromDay);
  while (day <= last) {
    // The largest aligned block that starts here and ends within the range; a day always fits.
    const span = bucketSpans.find((size) => blockStart(day, size) === day && day + size - 1 <= last) ?? 1;
    buckets.push({ span, firstDay: dayOfEpochDay(day) });
    day += span;
  }
  return buckets;
}
