// Range covers of the rolled-up tables: disjoint, exact, and few.
import { describe, expect, it } from 'vitest';
import { bucketsOfDay, coverRange, dayOfEpochDay, epochDayOf } from './buckets';

function daysOf(buckets: ReturnType<typeof coverRange>): string[] {
  return buckets.flatMap(({ span, firstDay }) => Array.from({ length: span }, (_, index) => dayOfEpochDay(epochDayOf(firstDay) + index)));
}

function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = epochDayOf(from); day <= epochDayOf(to); day++) days.push(dayOfEpochDay(day));
  return days;
}

describe('coverRange', () => {
  it('covers every range of up to 120 days exactly once, with at most 20 buckets for 90 days', () => {
    const start = epochDayOf('2026-01-01');
    for (let offset = 0; offset < 60; offset++) {
      for (const length of [1, 2, 6, 7, 8, 27, 28, 29, 30, 56, 89, 90, 120]) {
        const from = dayOfEpochDay(start + offset);
        const to = dayOfEpochDay(start + offset + length - 1);
        const buckets = coverRange(from, to);
        expect(daysOf(buckets)).toEqual(daysBetween(from, to));
        if (length <= 90) expect(buckets.length).toBeLessThanOrEqual(20);
      }
    }
  });

  it('is empty when the range is', () => {
    expect(coverRange('2026-02-02', '2026-02-01')).toEqual([]);
  });

  it('uses only buckets a day is counted in', () => {
    for (const bucket of coverRange('2025-12-03', '2026-03-02')) {
      expect(bucketsOfDay(bucket.firstDay)).toContainEqual(bucket);
    }
  });
});

describe('bucketsOfDay', () => {
  it('puts a day in its day, its 7-day block and its 28-day block, aligned to 1970-01-01', () => {
    expect(bucketsOfDay('1970-01-09')).toEqual([
      { span: 28, firstDay: '1970-01-01' },
      { span: 7, firstDay: '1970-01-08' },
      { span: 1, firstDay: '1970-01-09' },
    ]);
  });
});
