// How leads read: the measured identification rate beside the landing page's claim (never a made-up
// figure), names, engagement, timeline lines, and which links are safe to render.
import { describe, expect, it } from 'vitest';
import {
  describeIdentificationCounts,
  describeWithdrawnSince,
  describeIdentificationRate,
  describeTimelineEntry,
  formatEngagement,
  formatLeadSource,
  getIdentificationRate,
  getLeadDisplayName,
  getSafeExternalUrl,
  sortTimelineNewestFirst,
} from './labels';
import type { TimelineEntry } from './queries';

describe('identification rate', () => {
  it('is identified ÷ allowed, from the counts, whatever unit the api rate has', () => {
    expect(getIdentificationRate({ identified: 12, allowed: 52 })).toBeCloseTo(23.0769, 3);
    expect(describeIdentificationRate({ identified: 12, allowed: 52 })).toBe('Your rate: 23.1% · the landing page says up to 40%');
  });

  it('shows no rate when nobody allowed identification, rather than 0% or the claim', () => {
    expect(getIdentificationRate({ identified: 0, allowed: 0 })).toBeNull();
    const text = describeIdentificationRate({ identified: 0, allowed: 0 });
    expect(text).toBe('No measured rate yet: no visitor has allowed identification · the landing page says up to 40%');
    expect(text).not.toMatch(/Your rate/);
  });

  it('never reads above 100%', () => {
    expect(getIdentificationRate({ identified: 5, allowed: 4 })).toBe(100);
  });

  it('says what the rate is made of', () => {
    expect(describeIdentificationCounts({ identified: 12, allowed: 1052 })).toBe('12 of 1,052 visitors who allowed identification');
    expect(describeIdentificationCounts({ identified: 1, allowed: 1 })).toBe('1 of 1 visitor who allowed identification');
  });

  it('says how many of those who allowed identification have withdrawn it since, and nothing when none has', () => {
    expect(describeWithdrawnSince({ allowed: 28, withdrawn: 3 })).toBe('3 of those 28 have withdrawn it since.');
    expect(describeWithdrawnSince({ allowed: 28, withdrawn: 1 })).toBe('1 of those 28 has withdrawn it since.');
    expect(describeWithdrawnSince({ allowed: 28, withdrawn: 0 })).toBeNull();
  });
});

describe('lead names and figures', () => {
  it('names a lead by name, else email, else company', () => {
    expect(getLeadDisplayName({ name: 'Ada Lovelace', email: 'ada@example.com', company: 'Acme' })).toBe('Ada Lovelace');
    expect(getLeadDisplayName({ name: ' ', email: 'ada@example.com', company: 'Acme' })).toBe('ada@example.com');
    expect(getLeadDisplayName({ name: null, email: null, company: 'Acme' })).toBe('Acme');
    expect(getLeadDisplayName({ name: null, email: null, company: null })).toBe('Unnamed lead');
  });

  it('reads sources and engagement', () => {
    expect(formatLeadSource('form')).toBe('Form');
    expect(formatLeadSource('call')).toBe('Consentry.identify');
    expect(formatLeadSource('network')).toBe('Company network');
    expect(formatLeadSource(null)).toBe('—');
    expect(formatEngagement(0)).toBe('0s');
    expect(formatEngagement(155)).toBe('2m 35s');
  });
});

const entry = (kind: TimelineEntry['kind'], detail: Record<string, unknown>, at = '2024-05-01T10:00:00Z'): TimelineEntry => ({ at, kind, detail });

describe('timeline lines', () => {
  it('reads page views by title, else address', () => {
    expect(describeTimelineEntry(entry('page_view', { url: 'https://shop.example/pricing', title: 'Pricing' }))).toEqual({
      title: 'Viewed Pricing',
      detail: 'https://shop.example/pricing',
    });
    expect(describeTimelineEntry(entry('page_view', { url: 'https://shop.example/' }))).toEqual({ title: 'Viewed https://shop.example/', detail: null });
    expect(describeTimelineEntry(entry('page_view', { url: 'https://shop.example/', visibleMs: 45_000 }))).toEqual({
      title: 'Viewed https://shop.example/',
      detail: '45s on the page',
    });
  });

  it('reads a choice by whether it allowed identification, how it was made and what it granted', () => {
    expect(describeTimelineEntry(entry('consent', { method: 'accept_all', granted: ['identification', 'analytics'], eventId: 'e1' }))).toEqual({
      title: 'Allowed identification',
      detail: 'Accept All · Granted: Analytics, Identification',
    });
    expect(describeTimelineEntry(entry('consent', { method: 'custom', granted: ['analytics'], eventId: 'e2' }))).toEqual({
      title: 'Did not allow identification',
      detail: 'Customized · Granted: Analytics',
    });
    expect(describeTimelineEntry(entry('consent', { method: 'reject_all', granted: [] }))).toEqual({
      title: 'Did not allow identification',
      detail: 'Reject All · Granted: necessary only',
    });
  });

  it('reads identification, the network match and enrichment', () => {
    expect(describeTimelineEntry(entry('identified', { source: 'form', pageUrl: 'https://shop.example/contact' }))).toEqual({
      title: 'Identified from a form',
      detail: 'https://shop.example/contact',
    });
    expect(describeTimelineEntry(entry('identified', { source: 'call', pageUrl: null })).title).toBe('Identified by the site (Consentry.identify)');
    expect(describeTimelineEntry(entry('company_matched', { organisation: 'Acme Corp' })).title).toBe('Company matched from the network: Acme Corp');
    expect(describeTimelineEntry(entry('enriched', { provider: 'hunter' })).title).toBe('Enriched by hunter');
    expect(describeTimelineEntry(entry('enrichment_failed', { reason: 'deadline' }))).toEqual({
      title: 'Enrichment failed',
      detail: 'The provider gave no answer within 24 hours.',
    });
    expect(describeTimelineEntry(entry('enrichment_failed', { reason: 'something_new' })).detail).toBe('something_new');
  });

  it('sorts newest first, keeping the api order for the same instant', () => {
    const a = entry('page_view', { url: 'a' }, '2024-05-01T10:00:00Z');
    const b = entry('identified', { source: 'form' }, '2024-05-02T10:00:00Z');
    const c = entry('consent', { granted: [] }, '2024-05-01T10:00:00Z');
    expect(sortTimelineNewestFirst([a, b, c])).toEqual([b, a, c]);
  });
});

describe('links', () => {
  it('links only http and https profile addresses', () => {
    expect(getSafeExternalUrl('https://www.linkedin.com/in/ada')).toBe('https://www.linkedin.com/in/ada');
    expect(getSafeExternalUrl('javascript:alert(1)')).toBeNull();
    expect(getSafeExternalUrl('linkedin.com/in/ada')).toBeNull();
    expect(getSafeExternalUrl(null)).toBeNull();
  });
});
