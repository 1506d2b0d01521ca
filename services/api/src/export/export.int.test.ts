// Export of consent records: only the owner's websites, streamed as CSV or JSON with a useful file
// name, spreadsheet formulas neutralised, and every export recorded: an owner's for Recent Exports, and
// an admin's too, as the admin (an export of anyone's data is audited, by whoever).
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite, type TestWebsite } from '@consentry/projections/testing';
import { consentRecordsProjection, replayProjection } from '@consentry/projections';
import { accessControl } from '../access';
import { headerViewers } from '../access/testing';
import { apiErrorHandler } from '../errors';
import { exportColumns, exportRoutes } from './routes';

let db: TestDatabase;
let app: FastifyInstance;
let mine: TestWebsite;
let theirs: TestWebsite;

beforeAll(async () => {
  db = await createTestDatabase('export');
  mine = await addTestWebsite(db.pool, { domain: 'bakery.example.test' });
  theirs = await addTestWebsite(db.pool, { domain: 'florist.example.test' });
  const appender = createGroupCommitAppender(db.pool);
  for (let index = 0; index < 25; index++) {
    await appender.append(consentAppendRequest({ websiteId: index % 5 === 0 ? theirs.id : mine.id, choice: index % 3 === 0 ? 'declined' : 'accepted' }));
  }
  const hostile = consentAppendRequest({ websiteId: mine.id });
  const data = { ...(hostile.event.data as object), userAgent: '=HYPERLINK("http://evil.test","click")', pageUrl: '+cmd|" /C calc"!A0', city: '@SUM(1+1)' };
  await appender.append({ ...hostile, event: { ...hostile.event, data } as typeof hostile.event });
  await appender.close();
  await waitForLogVisible(db.pool);
  await replayProjection(db.pool, consentRecordsProjection);
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Behind the access check and the error handler, as in the api.
  app.setErrorHandler(apiErrorHandler);
  await app.register(accessControl, { viewers: headerViewers() });
  await app.register(exportRoutes, { pool: db.pool, batchSize: 7 });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index++;
    } else {
      cell += char;
    }
  }
  return rows;
}

describe('when an owner exports their consents as CSV', () => {
  it('downloads every record of their websites and nothing of anyone else’s', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/export/consents?format=csv', headers: { 'x-test-user': mine.ownerId } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="consentry-consents-all-websites-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual([...exportColumns]);
    expect(rows).toHaveLength(21);
    expect(new Set(rows.map((row) => row[2]))).toEqual(new Set([mine.id]));
    expect(new Set(rows.map((row) => row[4]))).toEqual(new Set(['bakery.example.test']));
  });

  it('neutralises cells a spreadsheet would execute', async () => {
    const response = await app.inject({ method: 'GET', url: `/api/export/consents?format=csv&websiteId=${mine.id}`, headers: { 'x-test-user': mine.ownerId } });
    expect(response.headers['content-disposition']).toContain('consentry-consents-bakery.example.test-');
    const hostile = parseCsv(response.body).find((row) => row[9]?.includes('HYPERLINK'));
    expect(hostile?.[9]).toBe(`'=HYPERLINK("http://evil.test","click")`);
    expect(hostile?.[14]).toBe(`'+cmd|" /C calc"!A0`);
    expect(hostile?.[12]).toBe(`'@SUM(1+1)`);
    expect(response.body).not.toMatch(/(^|,)[=+@]/m);
  });
});

describe('when an owner exports as JSON', () => {
  it('downloads a JSON array of records', async () => {
    const response = await app.inject({ method: 'GET', url: `/api/export/consents?format=json&websiteId=${mine.id}`, headers: { 'x-test-user': mine.ownerId } });
    const records = response.json() as Array<Record<string, unknown>>;
    expect(records).toHaveLength(21);
    expect(Object.keys(records[0]!)).toEqual([...exportColumns]);
    expect(records.every((record) => record.websiteDomain === 'bakery.example.test')).toBe(true);
    const accepted = records.find((record) => record.consentChoice === 'accepted');
    expect(accepted).toMatchObject({
      offeredPurposes: ['preferences', 'analytics', 'marketing'],
      grantedPurposes: ['preferences', 'analytics', 'marketing'],
      method: 'accept_all',
      rule: 'opt_in',
      region: 'EU',
    });
  });

  it('puts the purposes in one CSV cell each, separated by spaces, with the method and the rule', async () => {
    const response = await app.inject({ method: 'GET', url: `/api/export/consents?format=csv&websiteId=${mine.id}`, headers: { 'x-test-user': mine.ownerId } });
    const [header, ...rows] = parseCsv(response.body);
    const column = (name: string) => header!.indexOf(name);
    const accepted = rows.find((row) => row[column('consentChoice')] === 'accepted')!;
    expect(accepted[column('grantedPurposes')]).toBe('preferences analytics marketing');
    expect([accepted[column('method')], accepted[column('rule')], accepted[column('region')]]).toEqual(['accept_all', 'opt_in', 'EU']);
    const declined = rows.find((row) => row[column('consentChoice')] === 'declined');
    if (declined) expect(declined[column('grantedPurposes')]).toBe('');
  });
});

describe('when the website id is written in upper case', () => {
  it('exports the same records as the lower-case id, and still refuses another owner’s website', async () => {
    const get = (websiteId: string) => app.inject({ method: 'GET', url: `/api/export/consents?format=json&websiteId=${websiteId}`, headers: { 'x-test-user': mine.ownerId } });
    const upper = await get(mine.id.toUpperCase());
    expect(upper.statusCode).toBe(200);
    expect(upper.json()).toEqual((await get(mine.id)).json());
    expect((await get(theirs.id.toUpperCase())).statusCode).toBe(404);
  });
});

describe('when someone asks for data that is not theirs', () => {
  it('refuses another owner’s website and anonymous callers', async () => {
    const foreign = await app.inject({ method: 'GET', url: `/api/export/consents?format=csv&websiteId=${theirs.id}`, headers: { 'x-test-user': mine.ownerId } });
    expect(foreign.statusCode).toBe(404);
    const unknown = await app.inject({ method: 'GET', url: `/api/export/consents?websiteId=${randomUUID()}`, headers: { 'x-test-user': mine.ownerId } });
    expect(unknown.statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/export/consents' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/export/consents?format=xml', headers: { 'x-test-user': mine.ownerId } })).statusCode).toBe(400);
  });
});

describe('after exports', () => {
  it('lists them as Recent Exports with their row counts, newest first', async () => {
    const owner = theirs.ownerId;
    await app.inject({ method: 'GET', url: '/api/export/consents?format=json', headers: { 'x-test-user': owner } });
    await app.inject({ method: 'GET', url: `/api/export/consents?format=csv&websiteId=${theirs.id}`, headers: { 'x-test-user': owner } });
    const recent = (await app.inject({ method: 'GET', url: '/api/exports', headers: { 'x-test-user': owner } })).json() as Array<Record<string, unknown>>;
    expect(recent.map((entry) => [entry.format, entry.websiteId, entry.rowCount])).toEqual([
      ['csv', theirs.id, 5],
      ['json', null, 5],
    ]);
    const { rows } = await db.pool.query(`SELECT data FROM events WHERE type = 'ConsentsExported' AND data->>'userId' = $1`, [owner]);
    expect(rows).toHaveLength(2);
  });
});

describe('when an admin exports', () => {
  it('records the export as the admin, for one website and for all', async () => {
    const before = await db.pool.query(`SELECT count(*)::int AS count FROM consent_exports`);
    const one = await app.inject({ method: 'GET', url: `/api/export/consents?format=csv&websiteId=${theirs.id}`, headers: { 'x-test-admin': '1' } });
    expect(one.statusCode).toBe(200);
    const all = await app.inject({ method: 'GET', url: '/api/export/consents?format=json', headers: { 'x-test-admin': '1' } });
    expect(all.json()).toHaveLength(26);
    const { rows } = await db.pool.query<{ data: Record<string, unknown>; metadata: Record<string, unknown>; stream_id: string }>(
      `SELECT data, metadata, stream_id FROM events WHERE type = 'ConsentsExported' AND data->>'exportedBy' = 'admin' ORDER BY position`,
    );
    expect(rows.map((row) => [row.stream_id, row.data.userId, row.data.websiteId, row.data.format, row.data.rowCount, row.metadata.actor])).toEqual([
      ['exports-admin-admin', null, theirs.id, 'csv', 5, 'admin'],
      ['exports-admin-admin', null, null, 'json', 26, 'admin'],
    ]);
    // An admin without an owner account has no Recent Exports list; the ledger holds the record.
    expect((await db.pool.query(`SELECT count(*)::int AS count FROM consent_exports`)).rows).toEqual(before.rows);
  });

  it('names the owner as the exporter of their own exports', async () => {
    const { rows } = await db.pool.query(`SELECT data->>'exportedBy' AS exported_by FROM events WHERE type = 'ConsentsExported' AND data->>'userId' = $1`, [mine.ownerId]);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.exported_by))).toEqual(new Set([mine.ownerId]));
  });
});
