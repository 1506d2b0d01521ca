// The scan deciders as given / when / then: an owner's request queues a scan unless one of the
// website's scans waits or runs; the owner's word on an item is recorded as said.
import { describe, it } from 'vitest';
import type { ScanCompleted } from './scan';
import { itemPurposeDecider, scanDecider, ScanAlreadyRequestedError, ScanInProgressError, type RequestScan } from './scan-decider';
import { deciderSpec } from './testing/decider-spec';

const scans = deciderSpec(scanDecider);
const scanId = '6f1c2b7e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
const websiteId = '0b7e6c5d-4f3a-4b2c-9d1e-8f7a6b5c4d3e';
const now = '2024-05-01T10:00:00.000Z';

const request = (websiteHasOpenScan = false): RequestScan => ({
  type: 'RequestScan',
  data: { scanId, websiteId, requestedBy: 'owner-1', maxPages: 25, websiteHasOpenScan },
  metadata: { now },
});
const requested = { type: 'ScanRequested', data: { scanId, websiteId, trigger: 'owner', requestedBy: 'owner-1', maxPages: 25, requestedAt: now } } as const;
const completed: ScanCompleted = {
  type: 'ScanCompleted',
  data: { scanId, websiteId, startedAt: now, completedAt: now, pagesScanned: 1, truncated: false, items: [], findings: [] },
};

describe('when no scan of the website waits or runs', () => {
  it('queues the scan as the owner asked for it', () => {
    scans.when(request()).then([requested]);
  });
});

describe('when a scan of the website waits or runs', () => {
  it('refuses with SCAN_IN_PROGRESS', () => {
    scans.when(request(true)).thenThrows(ScanInProgressError);
    scans.when(request(true)).thenThrows('A scan of this website is already waiting or running');
  });
});

describe('when the scan was requested already', () => {
  it('refuses to request it again, also once it finished', () => {
    scans.given([requested]).when(request()).thenThrows(ScanAlreadyRequestedError);
    scans.given([requested, completed]).when(request()).thenThrows(ScanAlreadyRequestedError);
  });
});

describe('when the owner says what an item is for', () => {
  it('records it, or hands the item back with null', () => {
    const items = deciderSpec(itemPurposeDecider);
    const assign = (purpose: 'analytics' | null) =>
      ({ type: 'AssignItemPurpose', data: { websiteId, kind: 'cookie', name: '_ga', purpose, assignedBy: 'owner-1' }, metadata: { now } }) as const;
    items.when(assign('analytics')).then([
      { type: 'ItemPurposeAssigned', data: { websiteId, kind: 'cookie', name: '_ga', purpose: 'analytics', assignedBy: 'owner-1', assignedAt: now } },
    ]);
    items.when(assign(null)).then([{ type: 'ItemPurposeAssigned', data: { websiteId, kind: 'cookie', name: '_ga', purpose: null, assignedBy: 'owner-1', assignedAt: now } }]);
  });
});
