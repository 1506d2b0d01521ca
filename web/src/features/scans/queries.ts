// A website's cookie and tracker scans (docs/scanner.md): the scan history (['scans', websiteId]),
// one scan's report (['scans', 'report', scanId]) and the owner's own purposes for items
// (['item-purposes', websiteId]). The shapes are the api's (services/api/src/scans/routes.ts).
//
// The history is the one query of the app refetched on a timer, and only while a scan waits or runs:
// the runner records its progress in a read model no live update names, so polling is the only way
// to follow it. Once no scan is open the timer stops and the app's "never refetch" default holds.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getErrorCode, getJson, sendJson } from '../../lib/api';
import { websiteSettingsQueryOptions, type WebsiteSettings } from '../website-settings/queries';

export const scannedPurposes = ['necessary', 'preferences', 'analytics', 'marketing'] as const;
export type ScannedPurpose = (typeof scannedPurposes)[number];

export const storageKinds = ['cookie', 'localStorage', 'sessionStorage'] as const;
export type StorageKind = (typeof storageKinds)[number];

export type ScanStatus = 'queued' | 'running' | 'completed' | 'failed';
export type FindingCode = 'set_before_consent' | 'set_after_reject' | 'banner_missing' | 'declared_not_seen' | 'seen_not_declared';
export type FindingSeverity = 'critical' | 'high' | 'medium' | 'low';

export interface ScanProgress {
  pagesDone: number;
  pagesPlanned: number;
  currentUrl: string | null;
}

export interface ScanSummary {
  scanId: string;
  websiteId: string;
  trigger: 'owner' | 'schedule' | 'cli';
  requestedBy: string | null;
  maxPages: number;
  status: ScanStatus;
  requestedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  pagesScanned: number | null;
  truncated: boolean | null;
  failureReason: string | null;
  findingCount: number;
  progress: ScanProgress;
}

/** One cookie or storage key a scan saw, as classified. */
export interface ScannedItem {
  kind: StorageKind;
  name: string;
  /** The cookie's domain, or the origin's host for storage keys. */
  domain: string;
  /** null: Unclassified, for the owner to assign. */
  purpose: ScannedPurpose | null;
  source: 'owner' | 'database' | null;
  platform: string | null;
  controller: string | null;
  /** The database's retention, or the cookie's own expiry (ISO) or 'session'. */
  retention: string | null;
  firstParty: boolean;
  firstSeenUrl: string;
  seenBefore: boolean;
  seenAfterAccept: boolean;
  seenAfterReject: boolean;
}

export interface ScanFinding {
  code: FindingCode;
  severity: FindingSeverity;
  /** The item or host it is about; null for a page-level finding (banner missing). */
  subject: string | null;
  message: string;
  /** At most 50 listed; `pageCount` counts them all. */
  pages: string[];
  pageCount: number;
}

export interface ScanReport extends ScanSummary {
  items: ScannedItem[];
  /** Most serious first. */
  findings: ScanFinding[];
}

export interface ItemPurposeAssignment {
  kind: StorageKind;
  name: string;
  purpose: ScannedPurpose;
}

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

export interface PurposeAssignment {
  kind: StorageKind;
  name: string;
  /** null hands the item back to the Open Cookie Database (or Unclassified). */
  purpose: ScannedPurpose | null;
}

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
export const scanIntervalDaysMin = 0;
export const scanIntervalDaysMax = 365;
export const defaultScanIntervalDays = 30;

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

/** The website settings with the scan schedule, which the settings query's answer carries. */
export type ScanScheduleSettings = WebsiteSettings & { scanIntervalDays?: number };

/**
 * Changes how often the website is scanned on its own: a PATCH of the website settings naming only
 * `scanIntervalDays`. Afterwards only this website's settings query is refetched.
 */
export function useUpdateScanInterval(websiteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scanIntervalDays: number) =>
      sendJson<ScanScheduleSettings>('PATCH', `${websitePath(websiteId)}/settings`, { scanIntervalDays }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: websiteSettingsQueryOptions(websiteId).queryKey, exact: true }),
  });
}
