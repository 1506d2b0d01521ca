// The event catalogue: the one place that maps an event type name to its definition, and the lookups
// every reader and writer of the log goes through (type guard, parse, upcast, category).
import type { z } from 'zod';
import { BannerShown, EngagementRecorded, PageHidden, PageViewed } from './analytics';
import { BannerTextsPublished } from './banner';
import {
  CompanyMatched,
  EnrichmentFailed,
  LeadEnriched,
  VisitorIdentified,
  WebhookEndpointAdded,
  WebhookEndpointRemoved,
} from './identification';
import { ItemPurposeAssigned, ScanCompleted, ScanFailed, ScanRequested } from './scan';
import { BrandingChanged } from './branding';
import { EventsPurged, LedgerSealed, OwnerErased, SealTimestamped, SubjectErased } from './compliance';
import { ConsentDeclined, ConsentGiven } from './consent';
import {
  type EventCategory,
  type EventDefinition,
  InvalidEventError,
  UnknownEventTypeError,
  upcastToCurrentVersion,
} from './definition';
import { ConsentsExported } from './export';
import { SubscriptionPlanPublished } from './plan';
import { SiteContentChanged } from './site-content';
import { UserActivationChanged, UserDeleted, UserEmailChanged, UserInvited, UserNameChanged, UserRegistered, UserSubscriptionChanged } from './user';
import { WebsiteActivationChanged, WebsiteAdded, WebsiteRemoved, WebsiteSettingsChanged } from './website';

// The constraint makes a key that differs from its definition's `type` a compile error.
function catalogueOf<const TEntries extends { readonly [K in keyof TEntries]: EventDefinition<K & string> }>(
  entries: TEntries,
): Readonly<TEntries> {
  return Object.freeze(entries);
}

export const eventCatalogue = catalogueOf({
  ConsentGiven,
  ConsentDeclined,
  BannerShown,
  PageViewed,
  PageHidden,
  EngagementRecorded,
  WebsiteAdded,
  WebsiteRemoved,
  WebsiteActivationChanged,
  WebsiteSettingsChanged,
  UserRegistered,
  UserInvited,
  UserSubscriptionChanged,
  UserActivationChanged,
  UserNameChanged,
  UserEmailChanged,
  UserDeleted,
  SubscriptionPlanPublished,
  BrandingChanged,
  SiteContentChanged,
  ConsentsExported,
  LedgerSealed,
  SealTimestamped,
  EventsPurged,
  SubjectErased,
  OwnerErased,
  BannerTextsPublished,
  ScanRequested,
  ScanCompleted,
  ScanFailed,
  ItemPurposeAssigned,
  VisitorIdentified,
  CompanyMatched,
  LeadEnriched,
  EnrichmentFailed,
  WebhookEndpointAdded,
  WebhookEndpointRemoved,
});

export type EventCatalogue = typeof eventCatalogue;
export type EventType = keyof EventCatalogue;
export type EventData<T extends EventType> = z.output<EventCatalogue[T]['schema']>;
/** Any event of the catalogue as `{ type, data }`, discriminated by `type`. */
export type DomainEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

export const eventTypes: readonly EventType[] = Object.freeze(Object.keys(eventCatalogue) as EventType[]);

/** Own keys only: `toString` or `__proto__` are not event types. */
export function isEventType(name: string): name is EventType {
  return Object.hasOwn(eventCatalogue, name);
}

export function getEventDefinition<T extends EventType>(type: T): EventCatalogue[T];
export function getEventDefinition(type: string): EventCatalogue[EventType];
export function getEventDefinition(type: string): EventCatalogue[EventType] {
  if (!isEventType(type)) throw new UnknownEventTypeError(type);
  return eventCatalogue[type];
}

/** Validates `data` against the current schema of `type`; throws UnknownEventTypeError or InvalidEventError. */
export function parseEventData<T extends EventType>(type: T, data: unknown): EventData<T>;
export function parseEventData(type: string, data: unknown): EventData<EventType>;
export function parseEventData(type: string, data: unknown): EventData<EventType> {
  const definition = getEventDefinition(type);
  const schema: z.ZodType<EventData<EventType>> = definition.schema;
  const result = schema.safeParse(data);
  if (!result.success) throw InvalidEventError.fromZodError(definition.type, result.error);
  return result.data;
}

/** Validates a whole `{ type, data }` pair, e.g. one read from outside, into a DomainEvent. */
export function parseEvent(event: { readonly type: string; readonly data: unknown }): DomainEvent {
  const data = parseEventData(event.type, event.data);
  // Sound: `data` was validated by the schema registered under exactly this type.
  return { type: event.type, data } as DomainEvent;
}

/**
 * Lifts data stored at `schemaVersion` to the current version of `type` (identity when it is already
 * current); throws UnsupportedEventVersionError for a version this build does not know. Not validated.
 */
export function upcastEventData(type: string, schemaVersion: number, data: unknown): unknown {
  return upcastToCurrentVersion(getEventDefinition(type), schemaVersion, data);
}

export function categoryOf(type: string): EventCategory {
  return getEventDefinition(type).category;
}
