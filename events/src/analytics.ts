// The analytics stream family: banner impressions, page views, time on page and engagement the widget
// reports. Page-level events exist only after the visitor accepted; banner impressions are anonymous.
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
import {
  bannerPosition,
  bannerTheme,
  countryCode,
  deviceClass,
  isoDateTime,
  uuid,
  visitorId,
  websiteId,
} from './fields';

/**
 * One anonymous count per banner shown, before any choice: deliberately no visitor id, IP address or
 * user agent, and the strict schema refuses them if a producer sends them anyway.
 */
export const BannerShownData = z.strictObject({
  websiteId,
  position: bannerPosition,
  theme: bannerTheme,
  deviceClass,
  receivedAt: isoDateTime,
});
export type BannerShownData = z.infer<typeof BannerShownData>;
export const BannerShown = defineEvent({
  type: 'BannerShown',
  version: 1,
  category: 'analytics',
  schema: BannerShownData,
});
export type BannerShown = EventOf<typeof BannerShown>;

export const PageViewedData = z.strictObject({
  websiteId,
  visitorId,
  pageviewId: uuid,
  url: z.string().min(1).max(2048),
  path: z.string().min(1).max(2048),
  referrer: z.string().max(2048).nullable(),
  title: z.string().max(256).nullable(),
  deviceClass,
  country: countryCode.nullable(),
  receivedAt: isoDateTime,
});
export type PageViewedData = z.infer<typeof PageViewedData>;
export const PageViewed = defineEvent({
  type: 'PageViewed',
  version: 1,
  category: 'analytics',
  schema: PageViewedData,
});
export type PageViewed = EventOf<typeof PageViewed>;

/** Sent when the page becomes hidden: how long it was visible, capped at one day. */
export const PageHiddenData = z.strictObject({
  websiteId,
  visitorId,
  pageviewId: uuid,
  visibleMs: z.int().min(0).max(86_400_000),
  receivedAt: isoDateTime,
});
export type PageHiddenData = z.infer<typeof PageHiddenData>;
export const PageHidden = defineEvent({
  type: 'PageHidden',
  version: 1,
  category: 'analytics',
  schema: PageHiddenData,
});
export type PageHidden = EventOf<typeof PageHidden>;

export const engagementKinds = [
  'tap_to_call',
  'contact_form_submit',
  'location_map_view',
  'opening_hours_view',
] as const;
export const engagementKind = z.enum(engagementKinds);
export type EngagementKind = z.infer<typeof engagementKind>;

export const EngagementRecordedData = z.strictObject({
  websiteId,
  visitorId,
  pageviewId: uuid,
  kind: engagementKind,
  receivedAt: isoDateTime,
});
export type EngagementRecordedData = z.infer<typeof EngagementRecordedData>;
export const EngagementRecorded = defineEvent({
  type: 'EngagementRecorded',
  version: 1,
  category: 'analytics',
  schema: EngagementRecordedData,
});
export type EngagementRecorded = EventOf<typeof EngagementRecorded>;

export type AnalyticsEvent = BannerShown | PageViewed | PageHidden | EngagementRecorded;
export const analyticsEventTypes = [
  'BannerShown',
  'PageViewed',
  'PageHidden',
  'EngagementRecorded',
] as const satisfies readonly AnalyticsEvent['type'][];
