// The decider of an export stream (one per owner, or per admin without an owner account): every
// export is recorded, whoever made it, so the decision needs nothing of the stream but its version.
import { assertNever, type CommandMetadata, type StreamDecider } from './decider';
import type { ExportEvent, ExportFormat } from './export';

/** An owner's exports are listed to them (Recent Exports); an admin's own are kept apart, by username. */
export function exportStreamId(userId: string | null, exportedBy: string): string {
  return userId !== null ? `exports-${userId}` : `exports-admin-${exportedBy}`;
}

export interface RecordExport {
  readonly type: 'RecordExport';
  readonly data: {
    readonly exportId: string;
    /** The exporting owner account; null for an admin without one. */
    readonly userId: string | null;
    /** The owner's user id or the admin's username (an admin's export is audited as the admin). */
    readonly exportedBy: string;
    /** null: every website the exporter sees. */
    readonly websiteId: string | null;
    readonly format: ExportFormat;
    readonly rowCount: number;
  };
  readonly metadata: CommandMetadata;
}

export type ExportCommand = RecordExport;

export function decideExport(command: ExportCommand): ExportEvent[] {
  switch (command.type) {
    case 'RecordExport':
      return [{ type: 'ConsentsExported', data: { ...command.data, exportedAt: command.metadata.now } }];
    default:
      return assertNever(command.type);
  }
}

export const exportDecider: StreamDecider<ExportCommand, ExportEvent, null> = {
  eventTypes: [],
  decide: decideExport,
  evolve: (state) => state,
  initialState: () => null,
};
