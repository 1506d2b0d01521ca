// The scan stream family: cookie and tracker scans of an owner's website. A scan's request, its
// result (every cookie and storage key seen, classified, and every finding) and the owner's own
// purpose assignments are events, so what a site did on which day is part of the auditable record.
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
import { actor, displayText, isoDateTime, uuid, websiteId } from './fields';

/** The purposes a scanned item can serve: the banner's, with `necessary`; identification sets none. */
export const scannedPurposes = ['necessary', 'preferences', 'analytics', 'marketing'] as const;
export const scannedPurpose = z.enum(scannedPurposes);
export type ScannedPurpose = z.infer<typeof scannedPurpose>;

export const storageKinds = ['cookie', 'localStorage', 'sessionStorage'] as const;
export const storageKind = z.enum(storageKinds);
export type StorageKind = z.infer<typeof storageKind>;

export const scanTriggers = ['owner', 'schedule', 'cli'] as const;
export const scanTrigger = z.enum(scanTriggers);

export const maxScanPages = 200;
export const defaultScanPages = 25;

const pageUrl = z.string().min(1).max(2048);
const itemName = z.string().min(1).max(256);
const shortText = z.string().max(300);

/** One cookie or storage key the scan saw, as classified. */
export const scannedItem = z.strictObject({
  kind: storageKind,
  name: itemName,
  /** The cookie's domain, or the origin's host for storage keys. */
  domain: z.string().max(255),
  /** null: Unclassified, for the owner to assign. */
  purpose: scannedPurpose.nullable(),
  /** Who said so: the owner's assignment wins over the Open Cookie Database. */
  source: z.enum(['owner', 'database']).nullable(),
  platform: shortText.nullable(),
  controller: shortText.nullable(),
  /** The database's retention, or the cookie's own expiry (ISO) or 'session'. */
  retention: shortText.nullable(),
  firstParty: z.boolean(),
  firstSeenUrl: pageUrl,
  seenBefore: z.boolean(),
  seenAfterAccept: z.boolean(),
  seenAfterReject: z.boolean(),
});
export type ScannedItem = z.infer<typeof scannedItem>;

export const findingCodes = ['set_before_consent', 'set_after_reject', 'banner_missing', 'declared_not_seen', 'seen_not_declared'] as const;
export const findingCode = z.enum(findingCodes);
export type FindingCode = z.infer<typeof findingCode>;

export const scanFinding = z.strictObject({
  code: findingCode,
  severity: z.enum(['critical', 'high', 'medium', 'low']),
  /** The item or host it is about; null for a page-level finding (banner missing). */
  subject: z.string().max(300).nullable(),
  message: z.string().min(1).max(1000),
  /** The pages it was seen on (at most 50 listed; `pageCount` has them all). */
  pages: z.array(pageUrl).max(50),
  pageCount: z.int().min(0).max(100_000),
});
export type ScanFinding = z.infer<typeof scanFinding>;

export const ScanRequestedData = z.strictObject({
  scanId: uuid,
  websiteId,
  trigger: scanTrigger,
  /** The owner's user id or the admin's username; null for a scheduled scan. */
  requestedBy: actor.nullable(),
  maxPages: z.int().min(1).max(maxScanPages),
  requestedAt: isoDateTime,
});
export const ScanRequested = defineEvent({ type: 'ScanRequested', version: 1, category: 'scan', schema: ScanRequestedData });
export type ScanRequested = EventOf<typeof ScanRequested>;

export const ScanCompletedData = z.strictObject({
  scanId: uuid,
  websiteId,
  startedAt: isoDateTime,
  completedAt: isoDateTime,
  pagesScanned: z.int().min(0).max(maxScanPages),
  /** The scan reached its time limit before every planned page. */
  truncated: z.boolean(),
  items: z.array(scannedItem).max(5_000),
  /** Most serious first. */
  findings: z.array(scanFinding).max(1_000),
});
export const ScanCompleted = defineEvent({ type: 'ScanCompleted', version: 1, category: 'scan', schema: ScanCompletedData });
export type ScanCompleted = EventOf<typeof ScanCompleted>;

export const ScanFailedData = z.strictObject({
  scanId: uuid,
  websiteId,
  /** What went wrong, in words an owner can act on (never a stack trace). */
  reason: displayText(500),
  failedAt: isoDateTime,
});
export const ScanFailed = defineEvent({ type: 'ScanFailed', version: 1, category: 'scan', schema: ScanFailedData });
export type ScanFailed = EventOf<typeof ScanFailed>;

/** The owner says what an item is for; it wins over the database from the next scan on. null clears it. */
export const ItemPurposeAssignedData = z.strictObject({
  websiteId,
  kind: storageKind,
  name: itemName,
  purpose: scannedPurpose.nullable(),
  assignedBy: actor,
  assignedAt: isoDateTime,
});
export const ItemPurposeAssigned = defineEvent({ type: 'ItemPurposeAssigned', version: 1, category: 'scan', schema: ItemPurposeAssignedData });
export type ItemPurposeAssigned = EventOf<typeof ItemPurposeAssigned>;

export type ScanEvent = ScanRequested | ScanCompleted | ScanFailed | ItemPurposeAssigned;
export const scanEventTypes = ['ScanRequested', 'ScanCompleted', 'ScanFailed', 'ItemPurposeAssigned'] as const satisfies readonly ScanEvent['type'][];

/** One stream per scan; assignments go on the website's scan-settings stream. */
export const scanStreamId = (scanId: string): string => `scan-${scanId}`;
export const scanAssignmentsStreamId = (websiteId: string): string => `scan-assignments-${websiteId}`;
