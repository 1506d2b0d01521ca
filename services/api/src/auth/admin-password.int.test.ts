// The first admin's generated password works once: it is shown on the terminal (never on standard
// output, the log stream), and the sign-in it allows must choose a new password before the session can
// do anything as an admin. POST /api/admin/password replaces it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { buildTestApi, clientWith, sessionCookieOf, testPublicUrl, type Client, type TestApi } from '../testing/api-app';
import { ensureInitialAdmin, saveAdmin } from './admins';
import { createPasswordHasher } from './passwords';

const fastHasher = createPasswordHasher({ memoryCost: 1024, timeCost: 1 });
let db: TestDatabase;
let api: TestApi;
let generated = '';

beforeAll(async () => {
  db = await createTestDatabase('admin_password');
  const printed: string[] = [];
  expect(await ensureInitialAdmin(db.pool, { print: (text) => printed.push(text), hasher: fastHasher })).toBe('generated');
  generated = /password: (\S+)/.exec(printed.join(''))?.[1] ?? '';
  expect(generated.length).toBeGreaterThanOrEqual(20);
  api = await buildTestApi(db.pool);
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

async function signIn(username: string, password: string): Promise<{ status: number; client: Client | null }> {
  const response = await api.app.inject({ method: 'POST', url: '/api/admin/login', headers: { origin: testPublicUrl }, payload: { username, password } });
  const cookie = sessionCookieOf(response);
  return { status: response.statusCode, client: cookie ? clientWith(api.app, cookie) : null };
}

const changePassword = (client: Client, currentPassword: string, newPassword: string) =>
  client.request({ method: 'POST', url: '/api/admin/password', payload: { currentPassword, newPassword } });

const required = { error: { code: 'PASSWORD_CHANGE_REQUIRED', message: expect.stringContaining('Choose a new password') } };

describe('where a generated password is printed', () => {
  it('goes to standard error (the terminal), never to standard output (the JSON log stream)', async () => {
    const empty = await createTestDatabase('admin_password_print');
    const stdoutWrite = process.stdout.write.bind(process.stdout);
    const stderrWrite = process.stderr.write.bind(process.stderr);
    const [stdout, stderr]: [string[], string[]] = [[], []];
    process.stdout.write = ((chunk: string | Uint8Array) => stdout.push(String(chunk)) > 0) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      expect(await ensureInitialAdmin(empty.pool, { hasher: fastHasher })).toBe('generated');
    } finally {
      process.stdout.write = stdoutWrite;
      process.stderr.write = stderrWrite;
      await empty.drop();
    }
    expect(stdout.join('')).not.toMatch(/password/i);
    expect(stderr.join('')).toMatch(/password: \S{20,}/);
  });
});

describe('when the first admin signs in with the generated password', () => {
  let pending: Client;

  beforeAll(async () => {
    const { status, client } = await signIn('admin', generated);
    expect(status).toBe(200);
    pending = client!;
  });

  it('is told to choose a new password by /api/admin/me', async () => {
    const me = await pending.request({ method: 'GET', url: '/api/admin/me' });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ username: 'admin', mustChangePassword: true });
  });

  it.each([
    ['GET', '/api/admin/users'],
    ['GET', '/api/websites'],
    ['GET', '/api/consents'],
    ['GET', '/api/stats/consents'],
    ['GET', '/api/admin/branding'],
    ['DELETE', '/api/admin/users/6f1c2b7e-3a4d-4e5f-8a9b-0c1d2e3f4a5b'],
    ['DELETE', '/api/websites/6f1c2b7e-3a4d-4e5f-8a9b-0c1d2e3f4a5b'],
  ])('may not %s %s before that (403 PASSWORD_CHANGE_REQUIRED)', async (method, url) => {
    const response = await pending.request({ method: method as 'GET' | 'DELETE', url });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(required);
  });

  it('must give the current password, and a different new one of 8 to 128 characters', async () => {
    const wrong = await changePassword(pending, 'not the password', 'a brand new password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: { code: 'WRONG_PASSWORD', message: 'The current password is not correct' } });
    const same = await changePassword(pending, generated, generated);
    expect(same.json()).toEqual({ error: { code: 'SAME_PASSWORD', message: 'Choose a new password, not the current one' } });
    const short = await changePassword(pending, generated, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Password must be at least 8 characters');
  });

  it('gets the admin’s powers once a new password is chosen; the old one and the old session stop working', async () => {
    const changed = await changePassword(pending, generated, 'the admin chose this one');
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ success: true });
    const renewed = clientWith(api.app, sessionCookieOf(changed)!);
    expect(renewed.cookie).not.toBe(pending.cookie);
    expect((await renewed.request({ method: 'GET', url: '/api/admin/me' })).json()).toEqual({ username: 'admin', mustChangePassword: false });
    expect((await renewed.request({ method: 'GET', url: '/api/admin/users' })).statusCode).toBe(200);
    expect((await pending.request({ method: 'GET', url: '/api/admin/me' })).statusCode).toBe(401);

    expect((await signIn('admin', generated)).status).toBe(401);
    const again = await signIn('admin', 'the admin chose this one');
    expect(again.status).toBe(200);
    expect((await again.client!.request({ method: 'GET', url: '/api/admin/me' })).json()).toEqual({ username: 'admin', mustChangePassword: false });
  });
});

describe('an admin whose password someone chose', () => {
  it('is not asked to change it (ADMIN_PASSWORD, consentry admin create)', async () => {
    expect(await ensureInitialAdmin(db.pool, { username: 'ops', password: 'ops chose this', hasher: fastHasher })).toBe('created-from-environment');
    await saveAdmin(db.pool, 'cli-admin', 'typed at the prompt', fastHasher);
    for (const [username, password] of [['ops', 'ops chose this'], ['cli-admin', 'typed at the prompt']] as const) {
      const { client } = await signIn(username, password);
      expect((await client!.request({ method: 'GET', url: '/api/admin/me' })).json()).toEqual({ username, mustChangePassword: false });
      expect((await client!.request({ method: 'GET', url: '/api/admin/users' })).statusCode).toBe(200);
    }
  });

  it('can change it too, with the current one', async () => {
    const { client } = await signIn('ops', 'ops chose this');
    expect((await changePassword(client!, 'ops chose this', 'ops chose another')).statusCode).toBe(200);
    expect((await signIn('ops', 'ops chose another')).status).toBe(200);
  });

  it('cannot be changed without an admin session', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/api/admin/password',
      headers: { origin: testPublicUrl },
      payload: { currentPassword: 'ops chose another', newPassword: 'taken over now' },
    });
    expect(response.statusCode).toBe(401);
  });
});
