// Owners' self-service and the one password-strength rule: weak passwords are refused wherever an
// owner or admin chooses one (registration, invitation, admin and owner password changes, `consentry
// admin create`); owners change their own name (UserNameChanged) and password (other sessions end).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStream } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { inviteUser } from '../accounts/accounts';
import { buildTestApi, clientWith, registerOwner, sessionCookieOf, signInAdmin, testPassword, testPublicUrl, type TestApi } from '../testing/api-app';
import { AdminInputError, saveAdmin } from './admins';
import { createPasswordHasher } from './passwords';

const fastHasher = createPasswordHasher({ memoryCost: 1024, timeCost: 1 });
let db: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  db = await createTestDatabase('account_self_service');
  api = await buildTestApi(db.pool);
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

const weakPassword = { error: { code: 'WEAK_PASSWORD', message: expect.stringMatching(/^Choose a stronger password: .+\.$/) } };
let emails = 0;
const nextEmail = () => `self-service-${Date.now()}-${(emails += 1)}@example.com`;

const register = (payload: Record<string, unknown>) =>
  api.app.inject({ method: 'POST', url: '/api/auth/register', headers: { origin: testPublicUrl }, payload });

const signIn = (email: string, password: string) =>
  api.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl }, payload: { email, password } });

describe('when someone registers with a weak password', () => {
  it.each(['12345678', 'password1234'])('refuses %s with what to do instead', async (password) => {
    const response = await register({ email: nextEmail(), password });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(weakPassword);
  });

  it('refuses a password made of their own email address', async () => {
    const email = nextEmail();
    const response = await register({ email, password: email });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: { message: string } }>().error.message).toContain('your name or email address');
  });

  it('still refuses a too short password with the length rule', async () => {
    const response = await register({ email: nextEmail(), password: 'x7#q' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.stringContaining('at least 8 characters') } });
  });
});

describe('when someone registers with a name of only spaces', () => {
  it('refuses it, and accepts a name left empty', async () => {
    const spaces = await register({ email: nextEmail(), password: testPassword, firstName: '   ', lastName: 'Lee' });
    expect(spaces.statusCode).toBe(400);
    expect(spaces.json()).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.stringContaining('First name cannot be only spaces') } });
    const empty = await register({ email: nextEmail(), password: testPassword, firstName: '', lastName: '  Lee ' });
    expect(empty.statusCode).toBe(201);
    expect(empty.json()).toMatchObject({ user: { firstName: null, lastName: 'Lee' } });
  });
});

describe('when an invited person accepts with a weak password', () => {
  it('refuses it and keeps the link usable', async () => {
    const { token } = await inviteUser(db.pool, { email: nextEmail(), subscriptionTier: 'free' }, 'admin');
    const accept = (password: string) =>
      api.app.inject({ method: 'POST', url: '/api/auth/invitation/accept', headers: { origin: testPublicUrl }, payload: { token, password } });
    const weak = await accept('12345678');
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual(weakPassword);
    expect((await accept(testPassword)).statusCode).toBe(201);
  });
});

describe('when an admin chooses a weak password', () => {
  it('is refused by `consentry admin create` and by the password change', async () => {
    await expect(saveAdmin(db.pool, 'strength-admin', 'password1234', fastHasher)).rejects.toThrow(AdminInputError);
    await expect(saveAdmin(db.pool, 'strength-admin', 'password1234', fastHasher)).rejects.toThrow(/^Choose a stronger password: /);
    expect(await saveAdmin(db.pool, 'strength-admin', 'admin password 1', fastHasher)).toBe('created');
    const admin = await signInAdmin(api.app, 'strength-admin', 'admin password 1');
    const response = await admin.request({ method: 'POST', url: '/api/admin/password', payload: { currentPassword: 'admin password 1', newPassword: '12345678' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(weakPassword);
  });
});

describe('when an owner changes their name', () => {
  it('records UserNameChanged and answers the renamed owner', async () => {
    const owner = await registerOwner(api.app);
    const response = await owner.request({ method: 'PATCH', url: '/api/auth/user', payload: { firstName: '  Grace ', lastName: '' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: owner.id, firstName: 'Grace', lastName: null, email: owner.email });
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).json()).toMatchObject({ firstName: 'Grace', lastName: null });
    const types = (await readStream(db.pool, `user-${owner.id}`)).map((event) => event.type);
    expect(types.at(-1)).toBe('UserNameChanged');
  });

  it('records nothing for the same name', async () => {
    const owner = await registerOwner(api.app);
    const before = (await readStream(db.pool, `user-${owner.id}`)).length;
    const current = (await owner.request({ method: 'GET', url: '/api/auth/user' })).json<{ firstName: string; lastName: string }>();
    const response = await owner.request({ method: 'PATCH', url: '/api/auth/user', payload: { firstName: current.firstName, lastName: current.lastName } });
    expect(response.statusCode).toBe(200);
    expect((await readStream(db.pool, `user-${owner.id}`)).length).toBe(before);
  });

  it('refuses a name of only spaces or too long, and nobody signed in', async () => {
    const owner = await registerOwner(api.app);
    const spaces = await owner.request({ method: 'PATCH', url: '/api/auth/user', payload: { firstName: ' \t ' } });
    expect(spaces.statusCode).toBe(400);
    expect(spaces.json()).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.stringContaining('First name cannot be only spaces') } });
    const long = await owner.request({ method: 'PATCH', url: '/api/auth/user', payload: { lastName: 'x'.repeat(101) } });
    expect(long.statusCode).toBe(400);
    const anonymous = await api.app.inject({ method: 'PATCH', url: '/api/auth/user', headers: { origin: testPublicUrl }, payload: { firstName: 'Eve' } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('when an owner changes their password', () => {
  it('refuses a wrong current password and a weak new one, and keeps the old password', async () => {
    const owner = await registerOwner(api.app);
    const wrong = await owner.request({ method: 'POST', url: '/api/auth/password', payload: { currentPassword: 'not my password', newPassword: 'brand new horse staple' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: { code: 'WRONG_PASSWORD', message: expect.stringContaining('The current password is not correct') } });
    const weak = await owner.request({ method: 'POST', url: '/api/auth/password', payload: { currentPassword: testPassword, newPassword: 'password1234' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual(weakPassword);
    const same = await owner.request({ method: 'POST', url: '/api/auth/password', payload: { currentPassword: testPassword, newPassword: testPassword } });
    expect(same.json()).toMatchObject({ error: { code: 'SAME_PASSWORD' } });
    expect((await signIn(owner.email, testPassword)).statusCode).toBe(200);
  });

  it('changes it, keeps this browser signed in and signs the owner out everywhere else', async () => {
    const owner = await registerOwner(api.app);
    const elsewhereCookie = sessionCookieOf(await signIn(owner.email, testPassword));
    if (!elsewhereCookie) throw new Error('no second session');
    const elsewhere = clientWith(api.app, elsewhereCookie);
    expect((await elsewhere.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);

    const response = await owner.request({ method: 'POST', url: '/api/auth/password', payload: { currentPassword: testPassword, newPassword: 'brand new horse staple' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    const renewed = sessionCookieOf(response);
    if (!renewed) throw new Error('no renewed session cookie');
    expect(renewed).not.toBe(owner.cookie);
    expect((await clientWith(api.app, renewed).request({ method: 'GET', url: '/api/auth/user' })).json()).toMatchObject({ id: owner.id });
    expect((await elsewhere.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);

    expect((await signIn(owner.email, testPassword)).statusCode).toBe(401);
    expect((await signIn(owner.email, 'brand new horse staple')).statusCode).toBe(200);
  });
});
