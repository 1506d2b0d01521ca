// A website's cookie and tracker scans (docs/scanner.md): the scan history (['scans', websiteId]),
// one scan's report (['scans', 'report', scanId]) and the owner's own purposes for items
// (['item-purposes', websiteId]). The shapes are the api's, generated from its OpenAPI document.
//
// The history is the one query of the app refetched on a timer, and only while a scan waits or runs:
// the runner records its progress in a read model no live update names, so polling is the only way
// to follow it. Once no scan is open the timer stops and the app's "never refetch" default holds.
import { defaultScanIntervalDays, scanIntervalDaysMax, scanIntervalDaysMin } from '@consentry/events/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getErrorCode, getJson, sendJson } from '../../lib/api';
import type { ApiAnswer, ApiBody, ApiSchemas } from '../../lib/api-types';
import { websiteSettingsQueryOptions, type WebsiteSettings } from '../website-settings/queries';

export type ScanSummary = ApiSchemas['ScanSummary'];
export type ScanStatus = ScanSummary['status'];
export type ScanProgress = ScanSummary['progress'];
/** A scan with every item it saw, classified, and its findings, most serious first. */
export type ScanReport = ApiSchemas['ScanReport'];
/**
 * One cookie or storage key a scan saw, as classified: `domain` is the cookie's or the origin's host,
 * `purpose` null is Unclassified (for the owner to assign), `retention` the database's or the
 * cookie's own expiry (ISO) or 'session'.
 */
export type ScannedItem = ScanReport['items'][number];
/** `subject` null for a page-level finding (banner missing); at most 50 `pages` listed, `pageCount` counts them all. */
export type ScanFinding = ScanReport['findings'][number];
export type FindingCode = ScanFinding['code'];
export type FindingSeverity = ScanFinding['severity'];
export type ItemPurposeAssignment = ApiAnswer<'/api/websites/{id}/item-purposes'>[number];
export type StorageKind = ItemPurposeAssignment['kind'];
export type ScannedPurpose = ItemPurposeAssignment['purpose'];

/** Every purpose and kind the api names, in the order the report's selects list them. */
export const scannedPurposes = ['necessary', 'preferences', 'analytics', 'marketing'] as const satisfies readonly ScannedPurpose[];
export const storageKinds = ['cookie', 'localStorage', 'sessionStorage'] as const satisfies readonly StorageKind[];

/** How often the history is refetched while a scan waits or runs. */
export const scanPollIntervalMs = 2_000;

export const isOpenScan = (scan: Pick<ScanSummary, 'status'>): boolean => scan.status === 'queued' || scan.status === 'running';

const websitePath = (websiteId: string) => `/api/websites/${encodeURIComponent(websiteId)}`;

/** The website's scans, newest first; polled only while one of them is queued or running. */
export function scansQueryOptions(websiteId: string) {
  return queryOptions({
    queryKey: ['scans', websiteId],
    queryFn: () => getJson<ScanSummary[]>(`${websitePath(websiteId)}/scans`),
    refetchInterval: (query) => (query.state.data?.some(isOpenScan) ? scanPollIntervalMs : false),
  });
}

/** One scan's report. Asked for completed scans only, whose report never changes. */
export function scanReportQueryOptions(scanId: string) {
  return queryOptions({
    queryKey: ['scans', 'report', scanId],
    queryFn: () => getJson<ScanReport>(`/api/scans/${encodeURIComponent(scanId)}`),
  });
}

export function itemPurposesQueryOptions(websiteId: string) {
  return queryOptions({
    queryKey: ['item-purposes', websiteId],
    queryFn: () => getJson<ItemPurposeAssignment[]>(`${websitePath(websiteId)}/item-purposes`),
  });
}

/**
 * Queues a scan. Afterwards (or when the api answers that one is already open) only this website's
 * history is refetched, which starts its polling.
 */
export function useStartScan(websiteId: string) {
  const queryClient = useQueryClient();
  const refreshHistory = () => queryClient.invalidateQueries({ queryKey: scansQueryOptions(websiteId).queryKey, exact: true });
  return useMutation({
    mutationFn: () => sendJson<ScanSummary>('POST', `${websitePath(websiteId)}/scans`, {}),
    onSuccess: refreshHistory,
    onError: async (error) => {
      if (getErrorCode(error) === 'SCAN_IN_PROGRESS') await refreshHistory();
    },
  });
}

/** `purpose` null hands the item back to the Open Cookie Database (or Unclassified). */
export type PurposeAssignment = ApiBody<'/api/websites/{id}/item-purposes', 'post'>;

/** Records the owner's purpose for an item; the api answers every assignment of the website. */
export function useAssignItemPurpose(websiteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (assignment: PurposeAssignment) => sendJson<ItemPurposeAssignment[]>('POST', `${websitePath(websiteId)}/item-purposes`, assignment),
    onSuccess: (assignments) => {
      queryClient.setQueryData(itemPurposesQueryOptions(websiteId).queryKey, assignments);
    },
  });
}

/** How often the system scans the website on its own, in days; 0: never (scheduled scans off). */
export { defaultScanIntervalDays, scanIntervalDaysMax, scanIntervalDaysMin };

export const scanIntervalProblem = `Enter a whole number of days from ${scanIntervalDaysMin} to ${scanIntervalDaysMax}.`;

type Checked = { ok: true; value: number } | { ok: false; problem: string };

/** The interval as typed: a whole number of days from 0 to 365. */
export function checkScanIntervalDays(input: string): Checked {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return { ok: false, problem: scanIntervalProblem };
  const days = Number(text);
  if (days < scanIntervalDaysMin || days > scanIntervalDaysMax) return { ok: false, problem: scanIntervalProblem };
  return { ok: true, value: days };
}

/**
 * Changes how often the website is scanned on its own: a PATCH of the website settings naming only
 * `scanIntervalDays`. Afterwards only this website's settings query is refetched.
 */
export function useUpdateScanInterval(websiteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scanIntervalDays: number) =>
      sendJson<WebsiteSettings>('PATCH', `${websitePath(websiteId)}/settings`, { scanIntervalDays }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: websiteSettingsQueryOptions(websiteId).queryKey, exact: true }),
  });
}
