// `consentry admin create` against a real database, with the password on standard input.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { runAdmin, type AdminIo } from './admin';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('jobs_admin');
});
afterAll(async () => {
  await db?.drop();
});

function io(stdinText: string) {
  const out: string[] = [];
  const err: string[] = [];
  const terminal: AdminIo = { stdin: Readable.from([stdinText]), stdout: (text) => out.push(text), stderr: (text) => err.push(text) };
  return { terminal, out, err };
}

const config = () => loadConfig({ DATABASE_URL: db.connectionString, LOG_LEVEL: 'silent' });

async function storedHash(username: string): Promise<string | undefined> {
  const { rows } = await db.pool.query('SELECT password_hash FROM admin_credentials WHERE username = $1', [username]);
  return rows[0]?.password_hash;
}

describe('consentry admin create', () => {
  it('creates an admin with the password from stdin, then changes it and ends the admin’s sessions', async () => {
    const first = io('first password\n');
    expect(await runAdmin(config(), ['create', '--username', 'ops', '--password-stdin'], first.terminal)).toBe(0);
    expect(first.out.join('')).toBe('Admin ops created.\n');
    const created = await storedHash('ops');
    expect(created).toMatch(/^\$argon2id\$/);
    await db.pool.query("INSERT INTO sessions (id_hash, admin_username, data, expires_at) VALUES ('x', 'ops', '{}', now() + interval '1 day')");

    const second = io('second password\n');
    expect(await runAdmin(config(), ['create', '--username', 'ops'], second.terminal)).toBe(0); // stdin is not a terminal
    expect(second.out.join('')).toContain('password changed');
    expect(await storedHash('ops')).not.toBe(created);
    expect((await db.pool.query("SELECT count(*)::int AS n FROM sessions WHERE admin_username = 'ops'")).rows[0].n).toBe(0);
    expect([...first.out, ...second.out].join('')).not.toContain('password\n');
  });

  it.each([
    [['create', '--password-stdin'], 'long enough\n', 2, '--username is required'],
    [['create', '--username', 'ops', '--password-stdin'], 'short\n', 2, 'The password must be 8 to 128 characters'],
    [['create', '--username', 'has space', '--password-stdin'], 'long enough\n', 2, 'The username must be'],
    [['remove', '--username', 'ops'], '', 2, 'Unknown admin command: remove'],
    [[], '', 2, 'Usage: consentry admin create'],
  ])('refuses %j', async (args, stdin, code, message) => {
    const run = io(stdin);
    expect(await runAdmin(config(), args, run.terminal)).toBe(code);
    expect(run.err.join('')).toContain(message);
  });
});
