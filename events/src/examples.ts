// Valid example data for every event type, for tests (here and in packages that consume events).
// The mapped type makes a missing example for a new event type a compile error.
import type { EventData, EventType } from './catalogue';
import { defaultSiteContent } from './site-content';

export const exampleIds = {
  websiteId: '6f1c2b7e-3a4d-4e5f-8a9b-0c1d2e3f4a5b',
  userId: '0b7e6c5d-4f3a-4b2c-9d1e-8f7a6b5c4d3e',
  visitorId: 'a3c1e5f7-9b2d-4f6a-8c0e-1d3f5b7a9c2e',
  pageviewId: 'c9d8e7f6-a5b4-4c3d-b2e1-f0a9b8c7d6e5',
  exportId: 'e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9',
} as const;

/** The smallest valid PNG (1×1 transparent pixel) as a data URL. */
export const examplePngDataUrl =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const consentChoice = {
  websiteId: exampleIds.websiteId,
  visitorId: exampleIds.visitorId,
  source: 'banner',
  policyVersion: '1',
  language: 'de-DE',
  pageUrl: 'https://www.example.com/contact?ref=ad',
  ipAddress: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
  deviceClass: 'mobile',
  country: 'DE',
  city: 'Berlin',
  email: null,
  occurredAt: '2024-05-01T12:00:00.000+02:00',
  receivedAt: '2024-05-01T10:00:00.120Z',
} as const;

export const exampleEventData: { readonly [T in EventType]: EventData<T> } = {
  ConsentGiven: consentChoice,
  ConsentDeclined: { ...consentChoice, source: 'gpc', email: null },
  BannerShown: {
    websiteId: exampleIds.websiteId,
    position: 'bottom',
    theme: 'light',
    deviceClass: 'desktop',
    receivedAt: '2024-05-01T10:00:00.000Z',
  },
  PageViewed: {
    websiteId: exampleIds.websiteId,
    visitorId: exampleIds.visitorId,
    pageviewId: exampleIds.pageviewId,
    url: 'https://www.example.com/pricing',
    path: '/pricing',
    referrer: 'https://www.google.com/',
    title: 'Pricing | Example',
    deviceClass: 'desktop',
    country: 'FR',
    receivedAt: '2024-05-01T10:00:01.000Z',
  },
  PageHidden: {
    websiteId: exampleIds.websiteId,
    visitorId: exampleIds.visitorId,
    pageviewId: exampleIds.pageviewId,
    visibleMs: 42_500,
    receivedAt: '2024-05-01T10:00:43.500Z',
  },
  EngagementRecorded: {
    websiteId: exampleIds.websiteId,
    visitorId: exampleIds.visitorId,
    pageviewId: exampleIds.pageviewId,
    kind: 'tap_to_call',
    receivedAt: '2024-05-01T10:00:20.000Z',
  },
  WebsiteAdded: {
    websiteId: exampleIds.websiteId,
    ownerId: exampleIds.userId,
    name: 'Example Bakery',
    domain: 'example.com',
    embedCode: 'Xk3_pQ9-vT2mZ8aB',
    addedAt: '2024-04-30T09:00:00.000Z',
  },
  WebsiteRemoved: { websiteId: exampleIds.websiteId, removedAt: '2024-06-01T09:00:00.000Z' },
  WebsiteActivationChanged: { websiteId: exampleIds.websiteId, isActive: false, changedAt: '2024-05-15T09:00:00.000Z' },
  WebsiteSettingsChanged: {
    websiteId: exampleIds.websiteId,
    retentionMonths: 24,
    privacyPolicyUrl: 'https://example.com/privacy',
    changedAt: '2024-05-02T09:00:00.000Z',
  },
  UserRegistered: {
    userId: exampleIds.userId,
    email: 'owner@example.com',
    firstName: 'Ada',
    lastName: null,
    registeredAt: '2024-04-30T08:00:00.000Z',
  },
  UserInvited: {
    userId: exampleIds.userId,
    email: 'invitee@example.com',
    subscriptionTier: 'free',
    maxWebsites: 1,
    maxConsentsPerMonth: 15,
    invitedBy: 'admin',
    invitedAt: '2024-04-29T08:00:00.000Z',
  },
  UserSubscriptionChanged: {
    userId: exampleIds.userId,
    subscriptionTier: 'pro',
    subscriptionStatus: 'active',
    maxWebsites: 10,
    maxConsentsPerMonth: 100_000,
    changedAt: '2024-05-03T08:00:00.000Z',
  },
  UserActivationChanged: { userId: exampleIds.userId, isActive: true, changedAt: '2024-05-04T08:00:00.000Z' },
  UserDeleted: { userId: exampleIds.userId, deletedAt: '2024-07-01T08:00:00.000Z' },
  SubscriptionPlanPublished: {
    planId: 'pro',
    displayName: 'Pro',
    description: 'For growing businesses with several websites.',
    priceCents: 4_900,
    maxWebsites: 10,
    maxConsentsPerMonth: 100_000,
    features: ['Up to 10 websites', '100,000 consents per month', 'B2B and B2C data', 'Guided setup'],
    publishedAt: '2024-04-01T00:00:00.000Z',
  },
  BrandingChanged: {
    companyName: 'Example Bakery',
    primaryColor: '#2563eb',
    logoUrl: examplePngDataUrl,
    ownerId: null,
    changedBy: 'admin',
    changedAt: '2024-05-05T08:00:00.000Z',
  },
  SiteContentChanged: { ...defaultSiteContent, changedBy: 'admin', changedAt: '2024-05-06T08:00:00.000Z' },
  ConsentsExported: {
    exportId: exampleIds.exportId,
    userId: exampleIds.userId,
    websiteId: null,
    format: 'csv',
    rowCount: 1_250,
    exportedAt: '2024-05-07T08:00:00.000Z',
  },
};
