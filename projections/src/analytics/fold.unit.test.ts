// The analytics fold without a database: the visit, bounce, time-on-site, consent-gate and
// unique-visitor rules of docs/analytics.md, and batch boundaries not changing any result.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NewEvent } from '@consentry/infra';
import { emptyDeltas, foldAnalyticsEvents, maxTrackedPagesPerVisit, type AnalyticsDeltas, type VisitorState } from './fold';
import { asStored, at, visitor } from './testing';

const websiteId = randomUUID();
const start = '2026-03-02T10:00:00.000Z';
const t = (minutes: number) => at(start, minutes);

/** Folds the events (one batch) and returns the deltas as plain, comparable rows. */
function fold(events: readonly NewEvent[], states = new Map<string, VisitorState>()) {
  return plain(foldAnalyticsEvents(asStored(events), states).deltas);
}

function plain(deltas: AnalyticsDeltas) {
  const keyed = (map: AnalyticsDeltas['pages']) =>
    Object.fromEntries([...map.values()].filter((row) => row.count !== 0).map((row) => [`${row.day} ${row.key}`, row.count]));
  return {
    daily: Object.fromEntries(
      [...deltas.daily.values()].map(({ websiteId: _w, day, ...counts }) => [day, counts]),
    ),
    pages: keyed(deltas.pages),
    referrers: keyed(deltas.referrers),
    devices: keyed(deltas.devices as AnalyticsDeltas['pages']),
    visitorDays: keyed(deltas.visitorDays),
  };
}

const day = '2026-03-02';

describe('visits', () => {
  it('when two page views are 10 minutes apart, they are one visit that did not bounce', () => {
    const v = visitor(websiteId);
    const a = v.view('/', t(0));
    const b = v.view('/menu', t(10));
    const result = fold([a, b]);
    expect(result.daily[day]).toMatchObject({ pageviews: 2, visits: 1, visitPageviews: 2, bounces: 0 });
    expect(result.pages).toEqual({ [`${day} /`]: 1, [`${day} /menu`]: 1 });
  });

  it('when the gap is more than 30 minutes, a second visit starts; exactly 30 minutes continues the visit', () => {
    const v = visitor(websiteId);
    expect(fold([v.view('/', t(0)), v.view('/a', t(30))]).daily[day]).toMatchObject({ visits: 1, bounces: 0 });
    const w = visitor(websiteId);
    expect(fold([w.view('/', t(0)), w.view('/a', t(30.001))]).daily[day]).toMatchObject({ visits: 2, bounces: 2, visitPageviews: 2 });
  });

  it('counts a PageHidden of the current visit as activity, so a long read then a click stays one visit', () => {
    const v = visitor(websiteId);
    const first = v.view('/article', t(0));
    const result = fold([first, v.hide(first.pageviewId, 40 * 60_000, t(40)), v.view('/next', t(50))]);
    expect(result.daily[day]).toMatchObject({ visits: 1, visitPageviews: 2, bounces: 0, visitTimeMs: 40 * 60_000 });
  });

  it('attributes a visit that runs past midnight to the day it started', () => {
    const v = visitor(websiteId);
    const late = '2026-03-02T23:50:00.000Z';
    const result = fold([v.view('/', late), v.view('/b', at(late, 20))]);
    expect(result.daily['2026-03-02']).toMatchObject({ visits: 1, visitPageviews: 2, pageviews: 1 });
    expect(result.daily['2026-03-03']).toMatchObject({ visits: 0, visitPageviews: 0, pageviews: 1 });
    expect(result.visitorDays).toEqual({ '2026-03-02 -infinity': 1, '2026-03-03 2026-03-02': 1 });
  });

  it('takes the device class and the referrer of the landing page view', () => {
    const v = visitor(websiteId);
    const result = fold([
      v.view('/', t(0), { deviceClass: 'mobile', referrer: 'https://www.google.de/' }),
      v.view('/b', t(1), { deviceClass: 'desktop', referrer: 'https://www.shop.example.com/' }),
    ]);
    expect(result.devices).toEqual({ [`${day} mobile`]: 1 });
    expect(result.referrers).toEqual({ [`${day} google`]: 1 });
  });

  it("never lets a visitor's clock go backwards: a receive time out of order counts as the last activity", () => {
    const v = visitor(websiteId);
    const result = fold([v.view('/', '2026-03-03T00:00:00.005Z'), v.view('/b', '2026-03-02T23:59:59.999Z')]);
    expect(result.daily['2026-03-03']).toMatchObject({ pageviews: 2, visits: 1 });
    expect(result.daily['2026-03-02']).toBeUndefined();
  });
});

describe('time on site', () => {
  it('keeps the largest running total per page view and never adds the totals up', () => {
    const v = visitor(websiteId);
    const a = v.view('/', t(0));
    const b = v.view('/b', t(2));
    const result = fold([
      a,
      v.hide(a.pageviewId, 5_000, t(1)),
      v.hide(a.pageviewId, 12_000, t(3)),
      b,
      v.hide(a.pageviewId, 9_000, t(4)), // a lower total arriving late changes nothing
      v.hide(b.pageviewId, 30_000, t(5)),
    ]);
    expect(result.daily[day]?.visitTimeMs).toBe(42_000);
  });

  it('ignores a PageHidden for a page view of an earlier visit, and one for an unknown page view', () => {
    const v = visitor(websiteId);
    const old = v.view('/', t(0));
    const result = fold([old, v.view('/new', t(60)), v.hide(old.pageviewId, 9_000, t(61)), v.hide(randomUUID(), 5_000, t(62))]);
    expect(result.daily[day]).toMatchObject({ visits: 2, visitTimeMs: 0 });
  });

  it(`tracks at most ${maxTrackedPagesPerVisit} page views of a visit, dropping the oldest first`, () => {
    const v = visitor(websiteId);
    const views = Array.from({ length: maxTrackedPagesPerVisit + 1 }, (_, i) => v.view(`/p${i}`, t(i / 100)));
    const result = fold([...views, v.hide(views[0]!.pageviewId, 1_000, t(5)), v.hide(views[1]!.pageviewId, 2_000, t(5))]);
    expect(result.daily[day]).toMatchObject({ visits: 1, visitPageviews: maxTrackedPagesPerVisit + 1, visitTimeMs: 2_000 });
  });
});

describe('bounces and engagement', () => {
  it('a visit with one page view and no engagement bounces; an engagement on it stops the bounce', () => {
    const v = visitor(websiteId);
    const a = v.view('/', t(0));
    expect(fold([a]).daily[day]).toMatchObject({ visits: 1, bounces: 1 });
    const result = fold([a, v.engage(a.pageviewId, 'tap_to_call', t(1)), v.engage(a.pageviewId, 'location_map_view', t(2))]);
    expect(result.daily[day]).toMatchObject({ visits: 1, bounces: 0, tapToCallActions: 1, locationMapViews: 1 });
  });

  it('counts every engagement kind by the day it happened, even for a page view outside the current visit', () => {
    const v = visitor(websiteId);
    const result = fold([
      v.engage(randomUUID(), 'contact_form_submit', t(0)),
      v.engage(randomUUID(), 'opening_hours_view', t(0)),
    ]);
    expect(result.daily[day]).toMatchObject({ contactFormSubmissions: 1, openingHoursViews: 1, visits: 0, bounces: 0 });
  });
});

describe('the consent gate', () => {
  it("ignores every analytics event of a visitor whose latest choice is a decline, and counts them again after acceptance", () => {
    const v = visitor(websiteId);
    const ignored = v.view('/secret', t(1));
    const counted = v.view('/back', t(3));
    const result = fold([
      v.choose('declined', t(0)),
      ignored,
      v.hide(ignored.pageviewId, 5_000, t(2)),
      v.engage(ignored.pageviewId, 'tap_to_call', t(2)),
      v.choose('accepted', t(2.5)),
      counted,
    ]);
    expect(result.daily[day]).toMatchObject({ pageviews: 1, visits: 1, bounces: 1, visitTimeMs: 0, tapToCallActions: 0 });
    expect(result.pages).toEqual({ [`${day} /back`]: 1 });
  });

  it('a decline ends the current visit: the next page view after accepting again starts a new one', () => {
    const v = visitor(websiteId);
    const result = fold([v.view('/', t(0)), v.choose('declined', t(1)), v.choose('accepted', t(2)), v.view('/b', t(3))]);
    expect(result.daily[day]).toMatchObject({ visits: 2, bounces: 2 });
    expect(result.visitorDays).toEqual({ [`${day} -infinity`]: 1 });
  });
});

describe('unique visitors', () => {
  it('records each visitor-day under the previous day the visitor was seen', () => {
    const v = visitor(websiteId);
    const result = fold([
      v.view('/', '2026-03-01T09:00:00.000Z'),
      v.view('/', '2026-03-01T18:00:00.000Z'),
      v.view('/', '2026-03-03T09:00:00.000Z'),
      visitor(websiteId).view('/', '2026-03-03T10:00:00.000Z'),
    ]);
    expect(result.visitorDays).toEqual({
      '2026-03-01 -infinity': 1,
      '2026-03-03 2026-03-01': 1,
      '2026-03-03 -infinity': 1,
    });
  });
});

describe('batch boundaries', () => {
  /** A pseudo-random but reproducible day of traffic: 40 visitors, views, hides, engagement, choices. */
  function traffic(): NewEvent[] {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const visitors = Array.from({ length: 40 }, () => visitor(websiteId));
    const open = new Map<string, string[]>();
    const events: NewEvent[] = [];
    let minute = 0;
    for (let i = 0; i < 1500; i++) {
      minute += random() * 3;
      const v = visitors[Math.floor(random() * visitors.length)]!;
      const pages = open.get(v.visitorId) ?? [];
      const roll = random();
      if (roll < 0.5 || pages.length === 0) {
        const view = v.view(`/p${Math.floor(random() * 12)}`, t(minute), { referrer: random() < 0.3 ? 'https://duckduckgo.com/' : null });
        pages.push(view.pageviewId);
        open.set(v.visitorId, pages);
        events.push(view);
      } else if (roll < 0.8) {
        events.push(v.hide(pages[Math.floor(random() * pages.length)]!, Math.floor(random() * 120_000), t(minute)));
      } else if (roll < 0.93) {
        events.push(v.engage(pages[Math.floor(random() * pages.length)]!, 'tap_to_call', t(minute)));
      } else {
        events.push(v.choose(random() < 0.5 ? 'declined' : 'accepted', t(minute)));
      }
    }
    return events;
  }

  it.each([1, 7, 100, 1499])('folding in batches of %i gives what one batch gives', (size) => {
    const events = asStored(traffic());
    const whole = plain(foldAnalyticsEvents(events, new Map()).deltas);
    // Between batches the state goes through JSON, as it does through analytics_visitors.
    let stored = new Map<string, VisitorState>();
    const deltas = emptyDeltas();
    for (let offset = 0; offset < events.length; offset += size) {
      const states = new Map([...stored].map(([key, state]) => [key, { ...state, visitPages: new Map(JSON.parse(JSON.stringify([...state.visitPages])) as Array<[string, number]>) }]));
      const { changed } = foldAnalyticsEvents(events.slice(offset, offset + size), states, deltas);
      stored = new Map([...stored, ...[...changed].map((key) => [key, states.get(key)!] as const)]);
    }
    expect(plain(deltas)).toEqual(whole);
  });
});
