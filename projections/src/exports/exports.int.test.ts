// The inline exports projection: an owner's export is in their Recent Exports, newest first, once
// however often it is applied; an admin's export without an owner account is in the ledger only.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEventOf } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { projectionSpec } from '../testing/projection-spec';
import { exportsProjection, listRecentExports } from './projection';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('exports_projection');
});
afterAll(async () => {
  await db?.drop();
});

const exported = (userId: string | null, exportedAt: string, rowCount = 3): NewEventOf<'ConsentsExported'> => ({
  type: 'ConsentsExported',
  data: { exportId: randomUUID(), userId, exportedBy: userId ?? 'root', websiteId: null, format: 'csv', rowCount, exportedAt },
});

describe('when consents are exported', () => {
  it("lists an owner's exports newest first, each once", async () => {
    const userId = randomUUID();
    const first = exported(userId, '2026-03-01T10:00:00.000Z', 12);
    const second = exported(userId, '2026-03-02T10:00:00.000Z', 0);
    const exports = projectionSpec(exportsProjection, db.pool);
    await exports.given([first, second, first]).then(async (pool) => {
      expect(await listRecentExports(pool, userId)).toEqual([
        { id: second.data.exportId, websiteId: null, format: 'csv', rowCount: 0, exportedAt: '2026-03-02T10:00:00.000Z' },
        { id: first.data.exportId, websiteId: null, format: 'csv', rowCount: 12, exportedAt: '2026-03-01T10:00:00.000Z' },
      ]);
    });
  });

  it("keeps an admin's export without an owner account out of every owner's list", async () => {
    const admins = exported(null, '2026-03-03T10:00:00.000Z');
    await projectionSpec(exportsProjection, db.pool)
      .given([admins])
      .thenRows('SELECT export_id FROM consent_exports WHERE export_id = $1', [admins.data.exportId], []);
  });
});
