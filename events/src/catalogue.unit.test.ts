import { describe, expect, expectTypeOf, it } from 'vitest';
import * as analytics from './analytics';
import * as banner from './banner';
import * as branding from './branding';
import {
  categoryOf,
  type DomainEvent,
  type EventData,
  type EventType,
  eventCatalogue,
  eventTypes,
  getEventDefinition,
  isEventType,
  parseEvent,
  parseEventData,
  upcastEventData,
} from './catalogue';
import * as compliance from './compliance';
import * as consent from './consent';
import {
  type EventCategory,
  type EventDefinition,
  InvalidEventError,
  UnknownEventTypeError,
  UnsupportedEventVersionError,
} from './definition';
import { exampleEventData } from './examples';
import * as exports from './export';
import * as identification from './identification';
import * as plan from './plan';
import * as scan from './scan';
import * as siteContent from './site-content';
import * as user from './user';
import * as website from './website';

type Family = {
  category: EventCategory;
  types: readonly EventType[];
  module: Record<string, unknown>;
};

const families: Family[] = [
  { category: 'consent', types: consent.consentEventTypes, module: consent },
  { category: 'analytics', types: analytics.analyticsEventTypes, module: analytics },
  { category: 'website', types: website.websiteEventTypes, module: website },
  { category: 'user', types: user.userEventTypes, module: user },
  { category: 'plan', types: plan.planEventTypes, module: plan },
  { category: 'branding', types: branding.brandingEventTypes, module: branding },
  { category: 'site-content', types: siteContent.siteContentEventTypes, module: siteContent },
  { category: 'export', types: exports.exportEventTypes, module: exports },
  { category: 'compliance', types: compliance.complianceEventTypes, module: compliance },
  { category: 'banner', types: banner.bannerEventTypes, module: banner },
  { category: 'scan', types: scan.scanEventTypes, module: scan },
  { category: 'identification', types: [...identification.visitorIdentificationEventTypes, ...identification.webhookEndpointEventTypes], module: identification },
];

function isEventDefinition(value: unknown): value is EventDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    'version' in value &&
    'category' in value &&
    'schema' in value
  );
}

describe('the catalogue', () => {
  it('holds one definition per event type, keyed by that type', () => {
    for (const [key, definition] of Object.entries(eventCatalogue)) {
      expect(definition.type).toBe(key);
    }
    expect(eventTypes).toEqual(Object.keys(eventCatalogue));
    expect(new Set(eventTypes).size).toBe(eventTypes.length);
  });

  it.each(families.map((family) => [family.category, family] as const))(
    'has every %s event with its category, and nothing the family does not list',
    (category, family) => {
      for (const type of family.types) {
        expect(isEventType(type), type).toBe(true);
        expect(getEventDefinition(type).category).toBe(category);
      }
      const inCatalogue = eventTypes.filter((type) => eventCatalogue[type].category === category);
      expect([...inCatalogue].sort()).toEqual([...family.types].sort());
    },
  );

  it.each(families.map((family) => [family.category, family] as const))(
    'holds the very definitions the %s module exports, and the module lists all of them',
    (_category, family) => {
      const exported = Object.values(family.module).filter(isEventDefinition);
      expect(exported.map((definition) => definition.type).sort()).toEqual([...family.types].sort());
      for (const definition of exported) {
        expect(getEventDefinition(definition.type)).toBe(definition);
      }
    },
  );

  it('covers every family and no other type', () => {
    const familyTypes = families.flatMap((family) => family.types);
    expect([...familyTypes].sort()).toEqual([...eventTypes].sort());
    expect(eventTypes).toHaveLength(37);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(eventCatalogue)).toBe(true);
    expect(Object.isFrozen(eventCatalogue.ConsentGiven)).toBe(true);
  });

  it('matches each family union and the domain event union at the type level', () => {
    expectTypeOf<Extract<DomainEvent, { type: consent.ConsentEvent['type'] }>>().toEqualTypeOf<consent.ConsentEvent>();
    expectTypeOf<
      Extract<DomainEvent, { type: analytics.AnalyticsEvent['type'] }>
    >().toEqualTypeOf<analytics.AnalyticsEvent>();
    expectTypeOf<Extract<DomainEvent, { type: website.WebsiteEvent['type'] }>>().toEqualTypeOf<website.WebsiteEvent>();
    expectTypeOf<Extract<DomainEvent, { type: user.UserEvent['type'] }>>().toEqualTypeOf<user.UserEvent>();
    expectTypeOf<Extract<DomainEvent, { type: plan.PlanEvent['type'] }>>().toEqualTypeOf<plan.PlanEvent>();
    expectTypeOf<
      Extract<DomainEvent, { type: branding.BrandingEvent['type'] }>
    >().toEqualTypeOf<branding.BrandingEvent>();
    expectTypeOf<
      Extract<DomainEvent, { type: siteContent.SiteContentEvent['type'] }>
    >().toEqualTypeOf<siteContent.SiteContentEvent>();
    expectTypeOf<Extract<DomainEvent, { type: exports.ExportEvent['type'] }>>().toEqualTypeOf<exports.ExportEvent>();
    expectTypeOf<Extract<DomainEvent, { type: compliance.ComplianceEvent['type'] }>>().toEqualTypeOf<compliance.ComplianceEvent>();

    type AllFamilies =
      | consent.ConsentEvent
      | analytics.AnalyticsEvent
      | website.WebsiteEvent
      | user.UserEvent
      | plan.PlanEvent
      | branding.BrandingEvent
      | siteContent.SiteContentEvent
      | exports.ExportEvent
      | compliance.ComplianceEvent
      | banner.BannerEvent
      | scan.ScanEvent
      | identification.VisitorIdentificationEvent
      | identification.WebhookEndpointEvent;
    expectTypeOf<AllFamilies>().toEqualTypeOf<DomainEvent>();

    // Each family's list of type names is exactly the names of its union.
    expectTypeOf<(typeof consent.consentEventTypes)[number]>().toEqualTypeOf<consent.ConsentEvent['type']>();
    expectTypeOf<(typeof banner.bannerEventTypes)[number]>().toEqualTypeOf<banner.BannerEvent['type']>();
    expectTypeOf<(typeof scan.scanEventTypes)[number]>().toEqualTypeOf<scan.ScanEvent['type']>();
    expectTypeOf<(typeof analytics.analyticsEventTypes)[number]>().toEqualTypeOf<analytics.AnalyticsEvent['type']>();
    expectTypeOf<(typeof website.websiteEventTypes)[number]>().toEqualTypeOf<website.WebsiteEvent['type']>();
    expectTypeOf<(typeof user.userEventTypes)[number]>().toEqualTypeOf<user.UserEvent['type']>();
    expectTypeOf<(typeof plan.planEventTypes)[number]>().toEqualTypeOf<plan.PlanEvent['type']>();
    expectTypeOf<(typeof branding.brandingEventTypes)[number]>().toEqualTypeOf<branding.BrandingEvent['type']>();
    expectTypeOf<(typeof siteContent.siteContentEventTypes)[number]>().toEqualTypeOf<
      siteContent.SiteContentEvent['type']
    >();
    expectTypeOf<(typeof exports.exportEventTypes)[number]>().toEqualTypeOf<exports.ExportEvent['type']>();

    expectTypeOf<EventData<'ConsentGiven'>>().toEqualTypeOf<consent.ConsentGivenData>();
    expectTypeOf<EventData<'BannerShown'>>().toEqualTypeOf<analytics.BannerShownData>();
  });
});

describe('given an example of every event type', () => {
  it.each(eventTypes.map((type) => [type]))('parses %s', (type) => {
    expect(parseEventData(type, exampleEventData[type])).toEqual(exampleEventData[type]);
  });
});

describe('when a type name is not in the catalogue', () => {
  it.each(['ConsentGivn', '', 'toString', '__proto__', 'constructor', 'hasOwnProperty'])(
    'is not an event type: %j',
    (name) => {
      expect(isEventType(name)).toBe(false);
    },
  );

  it('is refused with a message naming the type', () => {
    const lookUp = () => getEventDefinition('ConsentGivn');
    expect(lookUp).toThrow(UnknownEventTypeError);
    expect(lookUp).toThrow('Unknown event type: "ConsentGivn"');
  });

  it('is refused when parsing, upcasting or asking for its category', () => {
    expect(() => parseEventData('WebsiteDeleted', {})).toThrow('Unknown event type: "WebsiteDeleted"');
    expect(() => parseEvent({ type: 'toString', data: {} })).toThrow('Unknown event type: "toString"');
    expect(() => upcastEventData('WebsiteDeleted', 1, {})).toThrow(UnknownEventTypeError);
    expect(() => categoryOf('WebsiteDeleted')).toThrow(UnknownEventTypeError);
  });
});

describe('when event data does not fit its schema', () => {
  it('is refused with the type and every failing path', () => {
    const data = { ...exampleEventData.ConsentGiven, websiteId: 'not-a-uuid', method: 'popup' };
    let caught: unknown;
    try {
      parseEventData('ConsentGiven', data);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidEventError);
    const error = caught as InvalidEventError;
    expect(error.code).toBe('invalid_event');
    expect(error.eventType).toBe('ConsentGiven');
    expect(error.issues.map((issue) => issue.path)).toEqual(['data.websiteId', 'data.method']);
    expect(error.message).toBe(
      'Invalid ConsentGiven event: data.websiteId: Invalid UUID; ' +
        'data.method: Invalid option: expected one of "accept_all"|"reject_all"|"custom"|"gpc"|"jurisdiction_default"',
    );
  });

  it('names a nested path', () => {
    const data = { ...exampleEventData.SubscriptionPlanPublished, features: ['ok', 'x'.repeat(201)] };
    expect(() => parseEventData('SubscriptionPlanPublished', data)).toThrow(
      'Invalid SubscriptionPlanPublished event: data.features[1]: Too big: expected string to have <=200 characters',
    );
  });

  it('names the root when the data is not an object', () => {
    expect(() => parseEventData('UserDeleted', 'oops')).toThrow(
      'Invalid UserDeleted event: data: Invalid input: expected object, received string',
    );
  });
});

describe('a whole event', () => {
  it('parses into a domain event that narrows on its type', () => {
    const event = parseEvent({ type: 'PageHidden', data: exampleEventData.PageHidden });
    expect(event).toEqual({ type: 'PageHidden', data: exampleEventData.PageHidden });
    if (event.type === 'PageHidden') {
      expectTypeOf(event.data.visibleMs).toEqualTypeOf<number>();
    }
  });
});

describe('the category of an event type', () => {
  it.each([
    ['ConsentGiven', 'consent'],
    ['BannerShown', 'analytics'],
    ['WebsiteSettingsChanged', 'website'],
    ['UserInvited', 'user'],
    ['SubscriptionPlanPublished', 'plan'],
    ['BrandingChanged', 'branding'],
    ['SiteContentChanged', 'site-content'],
    ['ConsentsExported', 'export'],
  ] as const)('of %s is %s', (type, category) => {
    expect(categoryOf(type)).toBe(category);
  });
});

describe('when stored data is upcast', () => {
  it('returns data at the current version unchanged', () => {
    const data = exampleEventData.WebsiteAdded;
    expect(upcastEventData('WebsiteAdded', 1, data)).toBe(data);
  });

  it('refuses a version newer than this build knows, naming type and versions', () => {
    const attempt = () => upcastEventData('ConsentGiven', 3, exampleEventData.ConsentGiven);
    expect(attempt).toThrow(UnsupportedEventVersionError);
    expect(attempt).toThrow('Unsupported version 3 of ConsentGiven event: this build reads versions 1 to 2');
  });

  it('refuses a version below 1', () => {
    expect(() => upcastEventData('ConsentGiven', 0, {})).toThrow(UnsupportedEventVersionError);
  });
});

describe('a switch over every event type', () => {
  // Compile-time guard: adding an event type without handling it here fails the type check.
  function describeFamily(event: DomainEvent): string {
    switch (event.type) {
      case 'ConsentGiven':
      case 'ConsentDeclined':
        return 'consent';
      case 'BannerShown':
      case 'PageViewed':
      case 'PageHidden':
      case 'EngagementRecorded':
        return 'analytics';
      case 'WebsiteAdded':
      case 'WebsiteRemoved':
      case 'WebsiteActivationChanged':
      case 'WebsiteSettingsChanged':
        return 'website';
      case 'UserRegistered':
      case 'UserInvited':
      case 'UserSubscriptionChanged':
      case 'UserActivationChanged':
      case 'UserNameChanged':
      case 'UserEmailChanged':
      case 'UserDeleted':
        return 'user';
      case 'SubscriptionPlanPublished':
        return 'plan';
      case 'BrandingChanged':
        return 'branding';
      case 'SiteContentChanged':
        return 'site-content';
      case 'ConsentsExported':
        return 'export';
      case 'LedgerSealed':
      case 'SealTimestamped':
      case 'EventsPurged':
      case 'SubjectErased':
      case 'OwnerErased':
        return 'compliance';
      case 'BannerTextsPublished':
        return 'banner';
      case 'ScanRequested':
      case 'ScanCompleted':
      case 'ScanFailed':
      case 'ItemPurposeAssigned':
        return 'scan';
      case 'VisitorIdentified':
      case 'CompanyMatched':
      case 'LeadEnriched':
      case 'EnrichmentFailed':
      case 'WebhookEndpointAdded':
      case 'WebhookEndpointRemoved':
        return 'identification';
      default: {
        const unhandled: never = event;
        throw new Error(`Unhandled event ${JSON.stringify(unhandled)}`);
      }
    }
  }

  it('agrees with the catalogue categories', () => {
    for (const type of eventTypes) {
      const event = parseEvent({ type, data: exampleEventData[type] });
      expect(describeFamily(event)).toBe(categoryOf(type));
    }
  });
});
