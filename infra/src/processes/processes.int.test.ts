// The processes table against real Postgres: a heartbeat keeps its row current (leaderships
// included), removes it on stop, survives a failing database, and clears the rows of processes that
// died; readProcesses tells the alive from the silent by the database's clock.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, waitFor, type TestDatabase } from '../testing';
import { consentryVersion, readProcesses, startProcessHeartbeat, type ProcessHeartbeat } from './heartbeat';

let db: TestDatabase;
const running: ProcessHeartbeat[] = [];

beforeAll(async () => {
  db = await createTestDatabase('processes');
});
afterEach(async () => {
  for (const heartbeat of running.splice(0)) await heartbeat.stop();
  await db.pool.query('DELETE FROM processes');
});
afterAll(async () => {
  await db?.drop();
});

function start(options: Parameters<typeof startProcessHeartbeat>[1]): ProcessHeartbeat {
  const heartbeat = startProcessHeartbeat(db.pool, options);
  running.push(heartbeat);
  return heartbeat;
}

/** A row as a process on another machine would have left it, last seen `secondsAgo` ago. */
async function insertProcess(secondsAgo: number, fields: { host?: string; leaderships?: string[] } = {}): Promise<string> {
  const id = randomUUID();
  await db.pool.query(
    `INSERT INTO processes (id, host, pid, roles, started_at, seen_at, leaderships, version)
     VALUES ($1, $2, 4242, '{projectors}', now() - make_interval(secs => $3 + 60), now() - make_interval(secs => $3), $4, '1.2.3')`,
    [id, fields.host ?? 'elsewhere', secondsAgo, fields.leaderships ?? []],
  );
  return id;
}

async function rowOf(id: string) {
  const { rows } = await db.pool.query<{ leaderships: string[]; seen_at: Date }>('SELECT leaderships, seen_at FROM processes WHERE id = $1', [id]);
  return rows[0];
}

describe('a process heartbeat', () => {
  it('inserts its row at once: host, pid, roles, version, the locks it holds', async () => {
    const heartbeat = start({ roles: ['projectors', 'relay'], leaderships: () => ['relay', 'projection:consent-stats/p1of4'], intervalMs: 60_000, version: '9.8.7' });
    const [record] = await waitFor(async () => {
      const records = await readProcesses(db.pool);
      return records.length === 1 ? records : null;
    });
    expect(record).toMatchObject({
      id: heartbeat.id,
      host: hostname(),
      pid: process.pid,
      roles: ['projectors', 'relay'],
      version: '9.8.7',
      alive: true,
      leaderships: ['relay', 'projection:consent-stats/p1of4'],
    });
    expect(record!.seenSecondsAgo).toBeLessThan(5);
    expect(Date.parse(record!.startedAt)).toBeLessThanOrEqual(Date.parse(record!.seenAt));
  });

  it('refreshes seen_at and the leaderships at every beat', async () => {
    let locks: string[] = [];
    const heartbeat = start({ roles: ['projectors'], leaderships: () => locks, intervalMs: 20 });
    const first = await waitFor(() => rowOf(heartbeat.id));
    expect(first.leaderships).toEqual([]);
    locks = ['projection:leads', 'sealer'];
    const later = await waitFor(async () => {
      const row = await rowOf(heartbeat.id);
      return row && row.leaderships.length === 2 ? row : null;
    });
    expect(later.leaderships).toEqual(['projection:leads', 'sealer']);
    expect(later.seen_at.getTime()).toBeGreaterThan(first.seen_at.getTime());
  });

  it('deletes its own row on stop, and a stopped heartbeat writes nothing more', async () => {
    const heartbeat = startProcessHeartbeat(db.pool, { roles: ['api'], leaderships: () => [], intervalMs: 10 });
    await waitFor(() => rowOf(heartbeat.id));
    const other = await insertProcess(1);
    await heartbeat.stop();
    expect(await rowOf(heartbeat.id)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await rowOf(heartbeat.id)).toBeUndefined();
    expect(await rowOf(other)).toBeDefined();
  });

  it('deletes rows not seen for ten minutes, at most 100 a beat, and keeps the others', async () => {
    const dead = await Promise.all(Array.from({ length: 130 }, () => insertProcess(11 * 60)));
    const silent = await insertProcess(9 * 60);
    const heartbeat = start({ roles: ['jobs'], leaderships: () => [], intervalMs: 60_000 });
    const deadLeft = async () => (await db.pool.query<{ id: string }>('SELECT id FROM processes WHERE id = ANY($1)', [dead])).rows;
    // The beat writes its own row, then forgets the stale ones: wait for the second step, not the first.
    await waitFor(async () => (await rowOf(heartbeat.id)) && (await deadLeft()).length < dead.length);
    expect(await deadLeft()).toHaveLength(30);
    expect(await rowOf(silent)).toBeDefined();
  });

  it('reports a failed beat to onError and recovers on a later one', async () => {
    const errors: unknown[] = [];
    await db.pool.query('ALTER TABLE processes RENAME TO processes_away');
    let heartbeat: ProcessHeartbeat;
    try {
      heartbeat = start({ roles: ['ingest'], leaderships: () => [], intervalMs: 20, onError: (error) => errors.push(error) });
      await waitFor(() => errors.length >= 2, { message: 'two failed beats' });
    } finally {
      await db.pool.query('ALTER TABLE processes_away RENAME TO processes');
    }
    expect(String(errors[0])).toContain('processes');
    await waitFor(() => rowOf(heartbeat.id), { message: 'the row after the table came back' });
  });

  it('defaults to the version of the repository', () => {
    expect(consentryVersion()).toMatch(/\S/);
  });
});

describe('reading the processes', () => {
  it('marks a process not seen within three beats (15 s) as not alive, alive ones first', async () => {
    const silent = await insertProcess(20, { host: 'a-silent-host', leaderships: ['relay'] });
    const fresh = await insertProcess(2, { host: 'z-fresh-host' });
    const records = await readProcesses(db.pool);
    expect(records.map((record) => [record.id, record.alive])).toEqual([
      [fresh, true],
      [silent, false],
    ]);
    expect(records[1]).toMatchObject({ host: 'a-silent-host', pid: 4242, roles: ['projectors'], version: '1.2.3', leaderships: ['relay'] });
    expect(records[1]!.seenSecondsAgo).toBeGreaterThanOrEqual(20);
    expect(records[1]!.seenSecondsAgo).toBeLessThan(30);
    expect(records[1]!.uptimeSeconds).toBeGreaterThanOrEqual(80);
  });

  it('judges against a given time and window', async () => {
    const id = await insertProcess(20);
    const { rows } = await db.pool.query<{ seen_at: Date }>('SELECT seen_at FROM processes WHERE id = $1', [id]);
    const seenAt = rows[0]!.seen_at.getTime();
    expect((await readProcesses(db.pool, { now: new Date(seenAt + 5_000) }))[0]).toMatchObject({ alive: true, seenSecondsAgo: expect.closeTo(5, 2) });
    expect((await readProcesses(db.pool, { now: new Date(seenAt + 16_000) }))[0]!.alive).toBe(false);
    expect((await readProcesses(db.pool, { now: new Date(seenAt + 16_000), aliveWithinMs: 30_000 }))[0]!.alive).toBe(true);
  });
});
