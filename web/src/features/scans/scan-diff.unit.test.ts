// What changed between two scans: findings matched by code and subject, items by kind and name.
import { describe, expect, it } from 'vitest';
import type { ScanFinding, ScannedItem } from './queries';
import { diffScans, isEmptyDiff } from './scan-diff';

const item = (name: string, overrides: Partial<ScannedItem> = {}): ScannedItem => ({
  kind: 'cookie',
  name,
  domain: '.example.com',
  purpose: 'analytics',
  source: 'database',
  platform: 'Google Analytics',
  controller: 'Google',
  retention: '2 years',
  firstParty: true,
  firstSeenUrl: 'https://www.example.com/',
  seenBefore: true,
  seenAfterAccept: true,
  seenAfterReject: false,
  ...overrides,
});

const finding = (code: ScanFinding['code'], subject: string | null, overrides: Partial<ScanFinding> = {}): ScanFinding => ({
  code,
  severity: 'critical',
  subject,
  message: `${subject ?? 'The banner'}: ${code}`,
  pages: ['https://www.example.com/'],
  pageCount: 1,
  ...overrides,
});

describe('diffScans', () => {
  it('lists the findings that are new and those resolved, by code and subject', () => {
    const previous = { items: [], findings: [finding('set_before_consent', '_ga'), finding('banner_missing', null)] };
    const latest = {
      items: [],
      findings: [
        // Same code and subject, other pages and message: the same finding.
        finding('set_before_consent', '_ga', { message: '_ga is set before consent on 3 pages.', pageCount: 3 }),
        // Same subject, another code: a new finding.
        finding('set_after_reject', '_ga'),
        finding('seen_not_declared', '_fbp'),
      ],
    };
    const diff = diffScans(previous, latest);
    expect(diff.newFindings.map((entry) => [entry.code, entry.subject])).toEqual([
      ['set_after_reject', '_ga'],
      ['seen_not_declared', '_fbp'],
    ]);
    expect(diff.resolvedFindings.map((entry) => [entry.code, entry.subject])).toEqual([['banner_missing', null]]);
  });

  it('lists the items that are new and those gone, by kind and name', () => {
    const previous = { findings: [], items: [item('_ga'), item('_gid'), item('cart', { kind: 'localStorage' })] };
    const latest = {
      findings: [],
      // _ga on another domain with another expiry is still _ga; a cookie named like a storage key is not it.
      items: [item('_ga', { domain: 'www.example.com', retention: 'session' }), item('cart'), item('_fbp', { purpose: null })],
    };
    const diff = diffScans(previous, latest);
    expect(diff.newItems.map((entry) => [entry.kind, entry.name])).toEqual([
      ['cookie', 'cart'],
      ['cookie', '_fbp'],
    ]);
    expect(diff.goneItems.map((entry) => [entry.kind, entry.name])).toEqual([
      ['cookie', '_gid'],
      ['localStorage', 'cart'],
    ]);
  });

  it('finds nothing changed between two identical scans', () => {
    const scan = { findings: [finding('set_before_consent', '_ga')], items: [item('_ga')] };
    const diff = diffScans(scan, { findings: [...scan.findings], items: [...scan.items] });
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('lists an entry once even when a scan repeats it', () => {
    const diff = diffScans({ findings: [], items: [] }, { findings: [finding('set_before_consent', 'x'), finding('set_before_consent', 'x')], items: [item('x'), item('x')] });
    expect(diff.newFindings).toHaveLength(1);
    expect(diff.newItems).toHaveLength(1);
    expect(isEmptyDiff(diff)).toBe(false);
  });
});
