// The export stream family: a record of every consent export, because an export hands personal data
// out of the ledger and the owner must be able to show when and by whom.
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
import { isoDateTime, userId, uuid, websiteId } from './fields';

export const exportFormats = ['csv', 'json'] as const;
export const exportFormat = z.enum(exportFormats);
export type ExportFormat = z.infer<typeof exportFormat>;

export const ConsentsExportedData = z.strictObject({
  exportId: uuid,
  userId,
  /** null: all of the user's websites. */
  websiteId: websiteId.nullable(),
  format: exportFormat,
  rowCount: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  exportedAt: isoDateTime,
});
export type ConsentsExportedData = z.infer<typeof ConsentsExportedData>;
export const ConsentsExported = defineEvent({
  type: 'ConsentsExported',
  version: 1,
  category: 'export',
  schema: ConsentsExportedData,
});
export type ConsentsExported = EventOf<typeof ConsentsExported>;

export type ExportEvent = ConsentsExported;
export const exportEventTypes = ['ConsentsExported'] as const satisfies readonly ExportEvent['type'][];
