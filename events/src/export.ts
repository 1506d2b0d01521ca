// The export stream family: a record of every consent export, because an export hands personal data
// out of the ledger and the owner must be able to show when and by whom.
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
import { actor, isoDateTime, userId, uuid, websiteId } from './fields';

export const exportFormats = ['csv', 'json'] as const;
export const exportFormat = z.enum(exportFormats);
export type ExportFormat = z.infer<typeof exportFormat>;

export const ConsentsExportedData = z
  .strictObject({
    exportId: uuid,
    /** The exporting owner account, whose Recent Exports list shows it; null for an admin without one. */
    userId: userId.nullable(),
    /**
     * Who exported: the owner's user id or the admin's username (an admin's export is audited as the
     * admin, whoever's data it was). Always written since admins' exports are recorded; absent in
     * events written before, which were all owners' exports: the exporter is then `userId`.
     */
    exportedBy: actor.optional(),
    /** null: all of the exporter's websites (every website, for an admin). */
    websiteId: websiteId.nullable(),
    format: exportFormat,
    rowCount: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
    exportedAt: isoDateTime,
  })
  // An export nobody can be named for would defeat the record's purpose.
  .refine((data) => data.userId !== null || data.exportedBy !== undefined, { error: 'An export names who made it', path: ['exportedBy'] });
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
