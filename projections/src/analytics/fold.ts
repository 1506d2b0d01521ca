// The analytics projection's logic without I/O: folds a batch of events, in log order, into the
// per-visitor state and the per-day deltas the projection then writes. docs/analytics.md defines
// every rule implemented here; the two must say the same thing.
//
// Determinism: the result depends only on the events' order and the state loaded before the batch,
// and every state change is carried in the returned states, so applying a log in batches of any
// size (live, or replay) gives the same read model.
import { hash } from 'node:crypto';
import type { DeviceClass, EngagementKind } from '@consentry/events';
import type { StoredEvent } from '@consentry/infra';
import { referrerDomainOf } from './referrers';

/** A new visit starts when a page view comes more than this long after the visitor's last activity. */
export const visitTimeoutMs = 30 * 60 * 1000;
/**
 * Page views of the current visit whose time on page is tracked (oldest dropped first). A page's
 * PageHidden comes when the visitor leaves it, so only a tab left open behind more than 50 newer
 * pages loses time; the bound keeps the visitor row (rewritten on every batch) small.
 */
export const maxTrackedPagesPerVisit = 50;
/** Paths longer than this are stored truncated (a key must fit a btree entry). */
export const maxStoredPathLength = 512;
/** `previous_day` of a visitor's first counted day (analytics_visitor_days). */
export const firstVisitorDay = '-infinity';

export const analyticsInputTypes = [
  'PageViewed',
  'PageHidden',
  'EngagementRecorded',
  'ConsentGiven',
  'ConsentDeclined',
] as const satisfies readonly StoredEvent['type'][];
export type AnalyticsInputEvent = Extract<StoredEvent, { type: (typeof analyticsInputTypes)[number] }>;

export function isAnalyticsInput(event: StoredEvent): event is AnalyticsInputEvent {
  return (analyticsInputTypes as readonly string[]).includes(event.type);
}

/** One visitor on one website, as stored in analytics_visitors. */
export interface VisitorState {
  readonly key: string;
  readonly websiteId: string;
  declined: boolean;
  /** UTC day of the visitor's latest counted page view. */
  lastSeenDay: string | null;
  /** Time (ms) of the visitor's latest activity; only ever moves forward. */
  lastActivityMs: number | null;
  /** UTC day the current visit started; null when there is no current visit. */
  visitDay: string | null;
  visitPageviews: number;
  visitEngaged: boolean;
  /** pageviewId → largest visibleMs so far, of the current visit, in the order they were viewed. */
  visitPages: Map<string, number>;
}

export interface DailyDelta {
  readonly websiteId: string;
  readonly day: string;
  pageviews: number;
  visits: number;
  visitPageviews: number;
  bounces: number;
  visitTimeMs: number;
  locationMapViews: number;
  openingHoursViews: number;
  contactFormSubmissions: number;
  tapToCallActions: number;
}

export interface KeyedCount<K extends string> {
  readonly websiteId: string;
  readonly day: string;
  readonly key: K;
  count: number;
}

export interface AnalyticsDeltas {
  readonly daily: Map<string, DailyDelta>;
  readonly pages: Map<string, KeyedCount<string>>;
  readonly referrers: Map<string, KeyedCount<string>>;
  readonly devices: Map<string, KeyedCount<DeviceClass>>;
  /** key = previous day (or -infinity) the visitor was seen. */
  readonly visitorDays: Map<string, KeyedCount<string>>;
}

/** The stable key of a visitor on a website: md5(websiteId:visitorId) shaped as a uuid. */
export function visitorKeyOf(websiteId: string, visitorId: string): string {
  const hex = hash('md5', `${websiteId}:${visitorId}`, 'hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function newVisitorState(key: string, websiteId: string): VisitorState {
  return {
    key,
    websiteId,
    declined: false,
    lastSeenDay: null,
    lastActivityMs: null,
    visitDay: null,
    visitPageviews: 0,
    visitEngaged: false,
    visitPages: new Map(),
  };
}

const dayMs = 86_400_000;
const dayNames = new Map<number, string>();

/** UTC `YYYY-MM-DD` of a time in ms (cached: a batch spans few days). */
export function utcDayOfMs(ms: number): string {
  const start = ms - (((ms % dayMs) + dayMs) % dayMs);
  let name = dayNames.get(start);
  if (name === undefined) {
    name = new Date(start).toISOString().slice(0, 10);
    if (dayNames.size > 10_000) dayNames.clear();
    dayNames.set(start, name);
  }
  return name;
}

const engagementColumn = {
  location_map_view: 'locationMapViews',
  opening_hours_view: 'openingHoursViews',
  contact_form_submit: 'contactFormSubmissions',
  tap_to_call: 'tapToCallActions',
} as const satisfies Record<EngagementKind, keyof DailyDelta>;

export function emptyDeltas(): AnalyticsDeltas {
  return { daily: new Map(), pages: new Map(), referrers: new Map(), devices: new Map(), visitorDays: new Map() };
}

function dailyOf(deltas: AnalyticsDeltas, websiteId: string, day: string): DailyDelta {
  const id = `${websiteId}|${day}`;
  let row = deltas.daily.get(id);
  if (row === undefined) {
    row = {
      websiteId,
      day,
      pageviews: 0,
      visits: 0,
      visitPageviews: 0,
      bounces: 0,
      visitTimeMs: 0,
      locationMapViews: 0,
      openingHoursViews: 0,
      contactFormSubmissions: 0,
      tapToCallActions: 0,
    };
    deltas.daily.set(id, row);
  }
  return row;
}

function count<K extends string>(map: Map<string, KeyedCount<K>>, websiteId: string, day: string, key: K): void {
  const id = `${websiteId}|${day}|${key}`;
  const row = map.get(id);
  if (row === undefined) map.set(id, { websiteId, day, key, count: 1 });
  else row.count++;
}

const isBounce = (state: VisitorState) => state.visitPageviews === 1 && !state.visitEngaged;

/**
 * Applies `events` (in log order) to the visitor states in `states` (keyed by visitor key; missing
 * visitors are created there) and returns what to add to the daily tables. Returns the keys of the
 * states that changed.
 */
export function foldAnalyticsEvents(
  events: readonly StoredEvent[],
  states: Map<string, VisitorState>,
  deltas: AnalyticsDeltas = emptyDeltas(),
): { deltas: AnalyticsDeltas; changed: Set<string> } {
  const changed = new Set<string>();
  const stateOf = (websiteId: string, visitorId: string): VisitorState => {
    const key = visitorKeyOf(websiteId, visitorId);
    let state = states.get(key);
    if (state === undefined) states.set(key, (state = newVisitorState(key, websiteId)));
    return state;
  };
  // Receive times of concurrent requests can be a few ms out of log order; a visitor's time never
  // goes backwards, so visits and days stay consistent whatever the order.
  const timeOf = (state: VisitorState, receivedAt: string) => Math.max(Date.parse(receivedAt), state.lastActivityMs ?? -Infinity);

  for (const event of events) {
    if (!isAnalyticsInput(event)) continue;
    switch (event.type) {
      case 'ConsentGiven':
      case 'ConsentDeclined': {
        const state = stateOf(event.data.websiteId, event.data.visitorId);
        const declined = event.type === 'ConsentDeclined';
        if (declined) {
          // A decline ends the current visit and forgets its pages; only what keeps counts exact
          // (last seen day, last activity) stays.
          state.visitDay = null;
          state.visitPageviews = 0;
          state.visitEngaged = false;
          state.visitPages = new Map();
        }
        // An acceptance by a visitor who never declined changes nothing, and stores no row for them.
        if (state.declined !== declined || declined) changed.add(state.key);
        state.declined = declined;
        break;
      }
      case 'PageViewed': {
        const { websiteId, visitorId, pageviewId, path, referrer, url, deviceClass } = event.data;
        const state = stateOf(websiteId, visitorId);
        if (state.declined) break;
        const time = timeOf(state, event.data.receivedAt);
        const day = utcDayOfMs(time);
        const startsVisit =
          state.visitDay === null || state.lastActivityMs === null || time - state.lastActivityMs > visitTimeoutMs;
        if (startsVisit) {
          state.visitDay = day;
          state.visitPageviews = 1;
          state.visitEngaged = false;
          state.visitPages = new Map([[pageviewId, 0]]);
          const daily = dailyOf(deltas, websiteId, day);
          daily.visits++;
          daily.visitPageviews++;
          daily.bounces++;
          count(deltas.devices, websiteId, day, deviceClass);
          count(deltas.referrers, websiteId, day, referrerDomainOf(referrer, url));
        } else {
          const visitDay = state.visitDay!;
          const daily = dailyOf(deltas, websiteId, visitDay);
          if (isBounce(state)) daily.bounces--;
          state.visitPageviews++;
          daily.visitPageviews++;
          if (!state.visitPages.has(pageviewId)) {
            state.visitPages.set(pageviewId, 0);
            if (state.visitPages.size > maxTrackedPagesPerVisit) {
              const oldest = state.visitPages.keys().next().value;
              if (oldest !== undefined) state.visitPages.delete(oldest);
            }
          }
        }
        dailyOf(deltas, websiteId, day).pageviews++;
        count(deltas.pages, websiteId, day, path.length > maxStoredPathLength ? path.slice(0, maxStoredPathLength) : path);
        if (state.lastSeenDay !== day) {
          count(deltas.visitorDays, websiteId, day, state.lastSeenDay ?? firstVisitorDay);
          state.lastSeenDay = day;
        }
        state.lastActivityMs = time;
        changed.add(state.key);
        break;
      }
      case 'PageHidden': {
        const { websiteId, visitorId, pageviewId, visibleMs } = event.data;
        const state = stateOf(websiteId, visitorId);
        if (state.declined || state.visitDay === null) break;
        const largest = state.visitPages.get(pageviewId);
        // Only page views of the current visit: each PageHidden carries the running total, so the
        // visit gains what this one adds over the largest seen before.
        if (largest === undefined) break;
        if (visibleMs > largest) {
          dailyOf(deltas, websiteId, state.visitDay).visitTimeMs += visibleMs - largest;
          state.visitPages.set(pageviewId, visibleMs);
        }
        state.lastActivityMs = timeOf(state, event.data.receivedAt);
        changed.add(state.key);
        break;
      }
      case 'EngagementRecorded': {
        const { websiteId, visitorId, pageviewId, kind } = event.data;
        const state = stateOf(websiteId, visitorId);
        if (state.declined) break;
        const time = timeOf(state, event.data.receivedAt);
        dailyOf(deltas, websiteId, utcDayOfMs(time))[engagementColumn[kind]]++;
        if (state.visitDay !== null && state.visitPages.has(pageviewId)) {
          if (isBounce(state)) dailyOf(deltas, websiteId, state.visitDay).bounces--;
          state.visitEngaged = true;
          state.lastActivityMs = time;
          changed.add(state.key);
        }
        break;
      }
      default: {
        const unhandled: never = event;
        throw new Error(`analytics: unhandled event ${(unhandled as StoredEvent).type}`);
      }
    }
  }
  return { deltas, changed };
}
