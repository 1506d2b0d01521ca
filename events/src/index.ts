// The public surface of @consentry/events: the event catalogue, each family's schemas and types, and
// the bounded field schemas that services reuse to validate requests at the edge.
export {
  defineEvent,
  eventCategories,
  InvalidEventError,
  UnknownEventTypeError,
  UnsupportedEventVersionError,
  upcastToCurrentVersion,
} from './definition';
export type { EventCategory, EventDefinition, EventIssue, EventOf, EventUpcaster } from './definition';

export {
  categoryOf,
  eventCatalogue,
  eventTypes,
  getEventDefinition,
  isEventType,
  parseEvent,
  parseEventData,
  upcastEventData,
} from './catalogue';
export type { DomainEvent, EventCatalogue, EventData, EventType } from './catalogue';

export {
  actor,
  bannerPosition,
  bannerPositions,
  bannerTheme,
  bannerThemes,
  countryCode,
  deviceClass,
  deviceClasses,
  emailAddress,
  imageDataUrl,
  imageMimeTypes,
  ipAddress,
  isoDateTime,
  isStorableInstant,
  isoDay,
  maxUtcOffsetMinutes,
  repairedInstant,
  maxConsentsPerMonth,
  maxImageDataUrlLength,
  maxWebsites,
  policyVersion,
  subscriptionTier,
  subscriptionTiers,
  visitorId,
  webUrl,
} from './fields';
export type { BannerPosition, BannerTheme, DeviceClass, SubscriptionTier } from './fields';

export * from './purposes';
export * from './jurisdictions';
export * from './banner-texts';
export * from './banner';
export * from './scan';
export * from './identification';
export * from './consent';
export * from './analytics';
export * from './website';
export * from './user';
export * from './plan';
export * from './branding';
export * from './site-content';
export * from './export';
export * from './compliance';

export { assertNever, DecisionError, foldEvents } from './decider';
export type { CommandMetadata, Decider, DecisionErrorKind, StreamDecider } from './decider';
export * from './website-decider';
export * from './user-decider';
export * from './branding-decider';
export * from './site-content-decider';
export * from './export-decider';
export * from './plan-decider';
export * from './scan-decider';
export * from './webhook-decider';
