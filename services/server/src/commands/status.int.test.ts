// `consentry status` in process against a real database: a running heartbeat, partitioned and whole
// checkpoints, a dead letter and a seal, printed as aligned tables and as JSON; an unreachable
// database is said plainly, without the connection string.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender, loadConfig, sealAll, signerFromPrivateKey, startProcessHeartbeat, type ProcessHeartbeat } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, freePort, waitFor, type TestDatabase } from '@consentry/infra/testing';
import { asyncProjections } from '@consentry/projections';
import type { SystemStatus } from '@consentry/api';
import type { JobIo } from './job';
import { formatDuration, runStatus } from './status';

const websiteId = '3c0f5a1e-7b2d-4e8f-9a6c-1d2e3f4a5b6c';
let db: TestDatabase;
let heartbeat: ProcessHeartbeat;

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const io: JobIo = { out: (text) => out.push(text), err: (text) => err.push(text), interactive: false };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

const config = () => loadConfig({ DATABASE_URL: db.connectionString, LOG_LEVEL: 'silent' });

beforeAll(async () => {
  db = await createTestDatabase('jobs_status');
  const appender = createGroupCommitAppender(db.pool);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await appender.append(consentAppendRequest({ websiteId }))).eventId);
  await appender.close();
  await sealAll(db.pool, signerFromPrivateKey(generateKeyPairSync('ed25519').privateKey));
  await db.pool.query(
    `INSERT INTO checkpoints (name, transaction_id, position)
     SELECT name, transaction_id, position FROM events, unnest($2::text[]) AS name WHERE event_id = $1`,
    [ids[1], ['relay', 'projection:consent-stats/p0of2', 'projection:consent-stats/p1of2', 'projection:consent-records']],
  );
  await db.pool.query(
    `INSERT INTO projection_dead_letters (projection, event_id, transaction_id, position, stream_id, type, error)
     SELECT 'consent-records', event_id, transaction_id, position, stream_id, type, 'cannot apply' FROM events WHERE event_id = $1`,
    [ids[2]],
  );
  heartbeat = startProcessHeartbeat(db.pool, { roles: ['projectors', 'relay'], leaderships: () => ['relay', 'sealer', 'projection:consent-stats/p0of2'], version: '4.5.6' });
  await waitFor(async () => (await db.pool.query('SELECT 1 FROM processes')).rowCount === 1);
});
afterAll(async () => {
  await heartbeat?.stop();
  await db?.drop();
});

describe('consentry status', () => {
  it('prints the processes, each projection partition with its lag and leader, dead letters and the seal', async () => {
    const { io, out, err } = capture();
    expect(await runStatus(config(), [], io)).toBe(0);
    expect(err()).toBe('');
    const text = out();
    const lines = text.split('\n');

    const processHeader = lines.findIndex((line) => line.startsWith('HOST'));
    expect(lines[processHeader - 1]).toBe('Processes: 1 alive');
    const processRow = lines[processHeader + 1]!;
    expect(processRow).toMatch(new RegExp(`^\\S+\\s+${process.pid}\\s+projectors,relay\\s+4\\.5\\.6\\s+\\d+s\\s+\\d+s ago\\s+relay, sealer, consent-stats/p0of2$`));
    // Aligned: each column starts where its title does.
    expect(processRow.indexOf('projectors,relay')).toBe(lines[processHeader]!.indexOf('ROLES'));
    expect(processRow.indexOf('relay, sealer')).toBe(lines[processHeader]!.indexOf('LOCKS HELD'));

    const projectionHeader = lines.findIndex((line) => line.startsWith('PROJECTION'));
    const rows = lines.slice(projectionHeader + 1, projectionHeader + 1 + asyncProjections.length + 1);
    const statsRows = rows.filter((line) => /\bp[01]of2\b/.test(line));
    expect(statsRows).toHaveLength(2);
    expect(statsRows[0]).toMatch(/^consent-stats\s+p0of2\s/);
    expect(statsRows[1]).toMatch(/^\s+p1of2\s/);
    const heldBy = lines[projectionHeader]!.indexOf('HELD BY');
    expect(statsRows[0]!.slice(heldBy)).toMatch(/^\S+:\d+\s/);
    expect(statsRows[1]!.slice(heldBy)).toMatch(/^nobody$/);
    const records = rows.find((line) => line.startsWith('consent-records'))!;
    // Three consents after its checkpoint; one dead letter.
    expect(records).toMatch(/^consent-records\s+-\s+\d+\s+3\s+\d+\s+\d+s ago\s+nobody\s+1$/);
    expect(rows.find((line) => line.startsWith('leads'))).toMatch(/not started/);

    expect(text).toMatch(/^Relay \(LAG/m);
    expect(text).toContain('Dead letters: 1 open (consent-records 1); see consentry dead-letters list.');
    expect(text).toMatch(/^Last seal: #1 at \S+ \(\d+s ago\), covering the log up to position \d+; since then 0 event\(s\), seals not counted \(the head is 1 position\(s\) further\); sealer: \S+:\d+\.$/m);
  });

  it('prints one JSON object with --json', async () => {
    const { io, out } = capture();
    expect(await runStatus(config(), ['--json'], io)).toBe(0);
    const status = JSON.parse(out()) as SystemStatus;
    expect(status.processes).toEqual([expect.objectContaining({ id: heartbeat.id, pid: process.pid, roles: ['projectors', 'relay'], alive: true, version: '4.5.6' })]);
    expect(status.projections.map((projection) => projection.name)).toEqual(asyncProjections.map((projection) => projection.name));
    const stats = status.projections.find((projection) => projection.name === 'consent-stats')!;
    expect(stats.checkpoints.map((checkpoint) => [checkpoint.name, checkpoint.lag.events, checkpoint.leader?.processId ?? null])).toEqual([
      // One website: all three later consents fall in one partition, none in the other.
      ['projection:consent-stats/p0of2', expect.any(Number), heartbeat.id],
      ['projection:consent-stats/p1of2', expect.any(Number), null],
    ]);
    expect(stats.checkpoints[0]!.lag.events + stats.checkpoints[1]!.lag.events).toBe(3);
    expect(status.relay.lag).toEqual({ events: 4, exact: true, positions: expect.any(Number) });
    expect(status.deadLetters).toEqual({ open: 1, byProjection: { 'consent-records': 1 } });
    expect(status.lastSeal).toMatchObject({ sequence: 1, since: { events: 0, exact: true } });
  });

  it('answers 1 and says so, without the connection string, when the database cannot be reached', async () => {
    const password = `pw-${randomUUID()}`;
    const url = `postgres://consentry:${password}@127.0.0.1:${await freePort()}/consentry`;
    const { io, out, err } = capture();
    expect(await runStatus(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }), [], io)).toBe(1);
    expect(out()).toBe('');
    expect(err()).toMatch(/^consentry status: cannot reach the database: .*ECONNREFUSED/);
    expect(err()).not.toContain(password);
    expect(err()).not.toContain('postgres://');
  });
});

describe('formatDuration', () => {
  it('reads at a glance', () => {
    expect([0, 42.9, 185, 7380, 370_000].map(formatDuration)).toEqual(['0s', '42s', '3m 05s', '2h 03m', '4d 06h']);
  });
});
