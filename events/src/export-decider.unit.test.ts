// The export decider as given / when / then: every export is recorded, an owner's on their stream and
// an admin's as the admin.
import { describe, expect, it } from 'vitest';
import { exportDecider, exportStreamId, type RecordExport } from './export-decider';
import { deciderSpec } from './testing/decider-spec';

const { when } = deciderSpec(exportDecider);
const userId = '0b7e6c5d-4f3a-4b2c-9d1e-8f7a6b5c4d3e';
const exportId = '6f1c2b7e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
const now = '2024-05-01T10:00:00.000Z';

describe('when consents are exported', () => {
  it("records an owner's export on the owner's stream", () => {
    const command: RecordExport = { type: 'RecordExport', data: { exportId, userId, exportedBy: userId, websiteId: null, format: 'csv', rowCount: 12 }, metadata: { now } };
    when(command).then([{ type: 'ConsentsExported', data: { ...command.data, exportedAt: now } }]);
    expect(exportStreamId(userId, userId)).toBe(`exports-${userId}`);
  });

  it("records an admin's export as the admin", () => {
    const command: RecordExport = { type: 'RecordExport', data: { exportId, userId: null, exportedBy: 'root', websiteId: null, format: 'json', rowCount: 0 }, metadata: { now } };
    when(command).then([{ type: 'ConsentsExported', data: { ...command.data, exportedAt: now } }]);
    expect(exportStreamId(null, 'root')).toBe('exports-admin-root');
  });
});
