// Builders of the widget's analytics and consent events for the analytics and recommendation tests:
// one visitor's actions at given times, as the ingest service would record them.
import { randomUUID } from 'node:crypto';
import { grantAll, grantNone, legacyPurposes } from '@consentry/events';
import type { BannerPosition, BannerTheme, ConsentSource, DeviceClass, EngagementKind } from '@consentry/events';
import type { NewEvent, StoredEvent } from '@consentry/infra';

/** `2026-03-02T10:00:00.000Z` plus `minutes`. */
export function at(isoStart: string, minutes = 0): string {
  return new Date(Date.parse(isoStart) + minutes * 60_000).toISOString();
}

export interface VisitorActions {
  readonly visitorId: string;
  /** A page view; returns its event and id so PageHidden/engagement can refer to it. */
  view(path: string, receivedAt: string, options?: { referrer?: string | null; deviceClass?: DeviceClass; host?: string }): NewEvent & { pageviewId: string };
  hide(pageviewId: string, visibleMs: number, receivedAt: string): NewEvent;
  engage(pageviewId: string, kind: EngagementKind, receivedAt: string): NewEvent;
  choose(choice: 'accepted' | 'declined', receivedAt: string, options?: { source?: ConsentSource; deviceClass?: DeviceClass }): NewEvent;
}

export function visitor(websiteId: string, visitorId: string = randomUUID()): VisitorActions {
  return {
    visitorId,
    view(path, receivedAt, options = {}) {
      const pageviewId = randomUUID();
      const host = options.host ?? 'www.shop.example.com';
      return {
        type: 'PageViewed',
        eventId: randomUUID(),
        pageviewId,
        data: {
          websiteId,
          visitorId,
          pageviewId,
          url: `https://${host}${path}`,
          path,
          referrer: options.referrer ?? null,
          title: null,
          deviceClass: options.deviceClass ?? 'desktop',
          country: 'DE',
          receivedAt,
        },
      };
    },
    hide(pageviewId, visibleMs, receivedAt) {
      return { type: 'PageHidden', eventId: randomUUID(), data: { websiteId, visitorId, pageviewId, visibleMs, receivedAt } };
    },
    engage(pageviewId, kind, receivedAt) {
      return { type: 'EngagementRecorded', eventId: randomUUID(), data: { websiteId, visitorId, pageviewId, kind, receivedAt } };
    },
    choose(choice, receivedAt, options = {}) {
      const data = {
        websiteId,
        visitorId,
        source: options.source ?? 'banner',
        offered: [...legacyPurposes],
        purposes: choice === 'accepted' ? grantAll(legacyPurposes) : grantNone,
        method: choice === 'accepted' ? ('accept_all' as const) : options.source === 'gpc' ? ('gpc' as const) : ('reject_all' as const),
        rule: { rule: 'opt_in' as const, region: null },
        policyVersion: '1',
        shownLanguage: 'en',
        textsHash: null,
        language: 'en-US',
        pageUrl: 'https://www.shop.example.com/',
        ipAddress: '203.0.113.0',
        userAgent: 'Mozilla/5.0',
        deviceClass: options.deviceClass ?? 'desktop',
        country: 'DE',
        city: 'Berlin',
        email: null,
        occurredAt: receivedAt,
        receivedAt,
      };
      return choice === 'accepted'
        ? { type: 'ConsentGiven', eventId: randomUUID(), data }
        : { type: 'ConsentDeclined', eventId: randomUUID(), data };
    },
  };
}

export function bannerShown(
  websiteId: string,
  receivedAt: string,
  options: { position?: BannerPosition; theme?: BannerTheme; deviceClass?: DeviceClass } = {},
): NewEvent {
  return {
    type: 'BannerShown',
    eventId: randomUUID(),
    data: {
      websiteId,
      position: options.position ?? 'bottom',
      theme: options.theme ?? 'light',
      deviceClass: options.deviceClass ?? 'desktop',
      receivedAt,
    },
  };
}

/** New events as the log would return them, in the given order (for tests without a database). */
export function asStored(events: readonly NewEvent[]): StoredEvent[] {
  return events.map(
    (event, index) =>
      ({
        eventId: event.eventId ?? randomUUID(),
        streamId: 'test',
        streamVersion: null,
        type: event.type,
        schemaVersion: 1,
        data: event.data,
        metadata: {},
        transactionId: 1,
        position: index + 1,
        recordedAt: new Date(0).toISOString(),
      }) as StoredEvent,
  );
}

