// Trend badges computed from data: the last 7 days against the 7 before, and websites added this month.
import { describe, expect, it } from 'vitest';
import { buildDailySeries, getCountTrend, getNewWebsitesTrend, getRateTrend, getTrendWindows } from './trends';

const now = Date.parse('2024-05-20T12:00:00Z');

describe('daily series', () => {
  it('fills missing days with zeros and ends today', () => {
    const series = buildDailySeries([{ date: '2024-05-19', accepted: 3, declined: 1 }], 3, now);
    expect(series).toEqual([
      { date: '2024-05-18', accepted: 0, declined: 0 },
      { date: '2024-05-19', accepted: 3, declined: 1 },
      { date: '2024-05-20', accepted: 0, declined: 0 },
    ]);
  });
});

describe('trend windows', () => {
  it('splits the last 14 days into this week and the week before', () => {
    const windows = getTrendWindows(
      [
        { date: '2024-05-20', accepted: 10, declined: 2 },
        { date: '2024-05-14', accepted: 1, declined: 1 },
        { date: '2024-05-13', accepted: 5, declined: 5 },
        { date: '2024-05-07', accepted: 4, declined: 0 },
        { date: '2024-05-06', accepted: 100, declined: 100 },
      ],
      now,
    );
    expect(windows.current).toEqual({ accepted: 11, declined: 3, total: 14 });
    expect(windows.previous).toEqual({ accepted: 9, declined: 5, total: 14 });
  });
});

describe('count trend', () => {
  it('is a signed percent change with one decimal', () => {
    expect(getCountTrend(112, 100, true)).toEqual({ label: '+12.0% vs previous 7 days', tone: 'positive', direction: 'up' });
    expect(getCountTrend(90, 100, true)).toEqual({ label: '-10.0% vs previous 7 days', tone: 'negative', direction: 'down' });
  });

  it('treats more declines as bad news and fewer as good news, pointing the way the number went', () => {
    expect(getCountTrend(12, 10, false)).toMatchObject({ tone: 'negative', direction: 'up' });
    expect(getCountTrend(8, 10, false)).toMatchObject({ tone: 'positive', direction: 'down' });
  });

  it('does not divide by an empty previous week', () => {
    expect(getCountTrend(0, 0, true)).toEqual({ label: 'No change vs previous 7 days', tone: 'neutral', direction: 'flat' });
    expect(getCountTrend(5, 0, true).label).toBe('5 in the last 7 days');
  });
});

describe('rate trend', () => {
  it('is the change of the acceptance rate in points', () => {
    const trend = getRateTrend({ accepted: 8, declined: 2, total: 10 }, { accepted: 6, declined: 4, total: 10 });
    expect(trend).toEqual({ label: '+20.0 pts vs previous 7 days', tone: 'positive', direction: 'up' });
  });

  it('needs data in both weeks', () => {
    expect(getRateTrend({ accepted: 1, declined: 0, total: 1 }, { accepted: 0, declined: 0, total: 0 }).tone).toBe('neutral');
  });
});

describe('new websites trend', () => {
  it('counts websites created this calendar month', () => {
    const site = (createdAt: string) => ({ id: createdAt, name: 'x', domain: 'x', isActive: true, embedCode: 'e', createdAt });
    const local = new Date(now);
    const thisMonth = new Date(local.getFullYear(), local.getMonth(), 2).toISOString();
    const lastMonth = new Date(local.getFullYear(), local.getMonth() - 1, 15).toISOString();
    expect(getNewWebsitesTrend([site(thisMonth), site(thisMonth), site(lastMonth)], now).label).toBe('+2 new this month');
    expect(getNewWebsitesTrend([site(lastMonth)], now).label).toBe('No new websites this month');
  });
});
