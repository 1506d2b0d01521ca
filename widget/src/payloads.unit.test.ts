import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UUID_PATTERN } from './ids';
import {
  buildConsentEvent,
  buildEngagement,
  buildImpression,
  buildPagehide,
  buildPageview,
  CONSENT,
  ENGAGEMENT,
  IMPRESSION,
  PAGEHIDE,
  PAGEVIEW,
} from './payloads';
import { protocolEnum, protocolFields, protocolStatus } from './protocol.test-helper';
import { grant, type Purpose } from './purposes';

const VISITOR = '5a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const OFFERED: Purpose[] = ['analytics', 'marketing'];
const ANALYTICS_ONLY = { offered: OFFERED, purposes: grant(OFFERED, (p) => p === 'analytics'), method: 'custom' as const };
const SHOWN = { policyVersion: '3', language: 'de', textsHash: 'b'.repeat(64) };
const PAGEVIEW_ID = '0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-06-01T12:34:56.789Z'));
  history.replaceState(null, '', '/menu?table=4#drinks');
  document.title = 'Menu — Trattoria Roma';
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the protocol page', () => {
  it('is what these tests read (a sanity check of the parser)', () => {
    expect(protocolFields(IMPRESSION)).toEqual(['embedCode', 'eventId', 'position', 'theme']);
    expect(protocolStatus(CONSENT)).toBe(201);
    expect(protocolStatus(PAGEVIEW)).toBe(202);
  });
});

describe('buildConsentEvent', () => {
  it('has exactly the fields of POST /api/collect/consent', () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('de-DE');
    const body = buildConsentEvent('emb_12345678', VISITOR, ANALYTICS_ONLY, 'banner', SHOWN);
    expect(Object.keys(body)).toEqual(protocolFields(CONSENT));
    expect(body).toEqual({
      embedCode: 'emb_12345678',
      eventId: expect.stringMatching(UUID_PATTERN),
      visitorId: VISITOR,
      offered: ['analytics', 'marketing'],
      purposes: { preferences: false, analytics: true, marketing: false, identification: false },
      method: 'custom',
      source: 'banner',
      policyVersion: '3',
      pageUrl: 'https://shop.example.com/menu?table=4#drinks',
      language: 'de-DE',
      shownLanguage: 'de',
      textsHash: 'b'.repeat(64),
      occurredAt: '2025-06-01T12:34:56.789Z',
    });
  });

  it('uses only the methods and sources the protocol names', () => {
    expect(protocolEnum(CONSENT, 'method')).toEqual(['accept_all', 'reject_all', 'custom', 'gpc', 'jurisdiction_default']);
    expect(protocolEnum(CONSENT, 'source')).toEqual(['banner', 'gpc', 'reopened', 'placeholder', 'api', 'opt_out_link', 'jurisdiction']);
    const declined = { offered: OFFERED, purposes: grant(OFFERED, false), method: 'gpc' as const };
    expect(buildConsentEvent('emb_12345678', VISITOR, declined, 'gpc', SHOWN)).toMatchObject({ method: 'gpc', source: 'gpc' });
  });

  it('mints a new eventId per event', () => {
    const a = buildConsentEvent('emb_12345678', VISITOR, ANALYTICS_ONLY, 'banner', SHOWN);
    const b = buildConsentEvent('emb_12345678', VISITOR, ANALYTICS_ONLY, 'banner', SHOWN);
    expect(a.eventId).not.toBe(b.eventId);
  });

  it('clips pageUrl to 2048 and language to 16 characters', () => {
    history.replaceState(null, '', '/search?q=' + 'x'.repeat(3000));
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('x'.repeat(40));
    const body = buildConsentEvent('emb_12345678', VISITOR, ANALYTICS_ONLY, 'banner', SHOWN);
    expect(body.pageUrl).toHaveLength(2048);
    expect(body.pageUrl.startsWith('https://shop.example.com/search?q=xxx')).toBe(true);
    expect(body.language).toHaveLength(16);
  });
});

describe('buildImpression', () => {
  it('is anonymous: exactly embedCode, eventId, position and theme', () => {
    const body = buildImpression('emb_12345678', 'top', 'dark');
    expect(Object.keys(body)).toEqual(protocolFields(IMPRESSION));
    expect(body).toEqual({ embedCode: 'emb_12345678', eventId: expect.stringMatching(UUID_PATTERN), position: 'top', theme: 'dark' });
  });
});

describe('buildPageview', () => {
  it('has exactly the fields of POST /api/collect/pageview', () => {
    const body = buildPageview('emb_12345678', VISITOR, PAGEVIEW_ID, 'https://www.google.com/');
    expect(Object.keys(body)).toEqual(protocolFields(PAGEVIEW));
    expect(body).toEqual({
      embedCode: 'emb_12345678',
      eventId: expect.stringMatching(UUID_PATTERN),
      visitorId: VISITOR,
      pageviewId: PAGEVIEW_ID,
      url: 'https://shop.example.com/menu?table=4#drinks',
      referrer: 'https://www.google.com/',
      title: 'Menu — Trattoria Roma',
    });
  });

  it('clips the referrer to 512 and the title to 256 characters, so the body stays under 4 KB', () => {
    document.title = '語'.repeat(300);
    const body = buildPageview('emb_12345678', VISITOR, PAGEVIEW_ID, 'https://r.example/' + 'r'.repeat(3000));
    expect(body.referrer).toHaveLength(512);
    expect(body.title).toHaveLength(256);
    const longest = { ...body, url: 'https://shop.example/' + 'u'.repeat(2100) };
    longest.url = longest.url.slice(0, 2048);
    expect(new TextEncoder().encode(JSON.stringify(longest)).length).toBeLessThanOrEqual(4096);
  });
});

describe('buildPagehide', () => {
  it('has exactly the fields of POST /api/collect/pagehide', () => {
    const body = buildPagehide('emb_12345678', VISITOR, PAGEVIEW_ID, 15_250.4);
    expect(Object.keys(body)).toEqual(protocolFields(PAGEHIDE));
    expect(body).toEqual({
      embedCode: 'emb_12345678',
      eventId: expect.stringMatching(UUID_PATTERN),
      visitorId: VISITOR,
      pageviewId: PAGEVIEW_ID,
      visibleMs: 15_250,
    });
  });

  it('keeps visibleMs within 0…86400000', () => {
    expect(buildPagehide('emb_12345678', VISITOR, PAGEVIEW_ID, -5).visibleMs).toBe(0);
    expect(buildPagehide('emb_12345678', VISITOR, PAGEVIEW_ID, 3 * 86_400_000).visibleMs).toBe(86_400_000);
  });
});

describe('buildEngagement', () => {
  it('has exactly the fields of POST /api/collect/engagement', () => {
    const body = buildEngagement('emb_12345678', VISITOR, PAGEVIEW_ID, 'tap_to_call');
    expect(Object.keys(body)).toEqual(protocolFields(ENGAGEMENT));
    expect(body).toEqual({
      embedCode: 'emb_12345678',
      eventId: expect.stringMatching(UUID_PATTERN),
      visitorId: VISITOR,
      pageviewId: PAGEVIEW_ID,
      kind: 'tap_to_call',
    });
  });
});
