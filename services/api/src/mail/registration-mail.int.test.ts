// Registration with email set up (SMTP_URL), against a real SMTP server on loopback: every address
// gets the same answer, so registering cannot tell anyone which addresses have accounts; the
// address's owner learns it by email. The account exists once the emailed link is opened, once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { buildTestApi, clientWith, registerOwner, sessionCookieOf, testPassword, testPublicUrl, type TestApi } from '../testing/api-app';
import { createSmtpMailer, type Mailer } from '@consentry/infra';
import { bodyOf, startLoopbackSmtp, type LoopbackSmtp } from './testing';

let db: TestDatabase;
let smtp: LoopbackSmtp;
let mailer: Mailer;
let api: TestApi;
let plain: TestApi;

beforeAll(async () => {
  db = await createTestDatabase('registration_mail', { poolSize: 8 });
  smtp = await startLoopbackSmtp();
  mailer = createSmtpMailer({ url: smtp.url, from: 'no-reply@consentry.test' });
  api = await buildTestApi(db.pool, { mailer });
  plain = await buildTestApi(db.pool); // no SMTP: accounts are created at once
});
afterAll(async () => {
  await api?.close();
  await plain?.close();
  mailer?.close();
  await smtp?.close();
  await db?.drop();
});

const register = (email: string, password = testPassword) =>
  api.app.inject({ method: 'POST', url: '/api/auth/register', headers: { origin: testPublicUrl }, payload: { email, password, firstName: 'Nina' } });
const mailTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
const confirm = (token: string) => api.app.inject({ method: 'POST', url: '/api/auth/confirm-email', headers: { origin: testPublicUrl }, payload: { token } });

describe('registering with email set up', () => {
  it('answers a new address and one that has an account exactly alike; only the emails differ', async () => {
    const existing = await registerOwner(plain.app);
    const fresh = `new-${randomUUID()}@example.com`;
    const [forNew, forExisting] = [await register(fresh), await register(existing.email.toUpperCase(), 'a guess at the password')];
    expect(forNew.statusCode).toBe(202);
    expect(forExisting.statusCode).toBe(202);
    expect(forExisting.body).toBe(forNew.body);
    expect(forNew.json()).toEqual({ status: 'confirmation_sent', message: 'Check your email: we sent a link to finish creating your account.' });
    expect(forNew.cookies).toEqual([]);
    expect(forExisting.cookies).toEqual([]);

    await expect.poll(() => mailTo(existing.email).length).toBe(1);
    expect(bodyOf(mailTo(existing.email)[0]!.raw)).toContain('which already has one');
    expect(bodyOf(mailTo(fresh)[0]!.raw)).toMatch(/\/confirm-email#[A-Za-z0-9_-]{43}/);
    // The existing account is untouched: its password still signs in.
    expect((await api.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl }, payload: { email: existing.email, password: testPassword } })).statusCode).toBe(200);
  });

  it('creates the account when the emailed link is opened, once, and signs the person in', async () => {
    const email = `confirm-${randomUUID()}@example.com`;
    await register(email);
    expect((await api.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl }, payload: { email, password: testPassword } })).statusCode).toBe(401);
    const token = /\/confirm-email#([A-Za-z0-9_-]{43})/.exec(bodyOf(mailTo(email)[0]!.raw))![1]!;
    const confirmed = await confirm(token);
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json().user).toMatchObject({ email, firstName: 'Nina', subscriptionTier: 'free' });
    const owner = clientWith(api.app, sessionCookieOf(confirmed)!);
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).json()).toMatchObject({ email });
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('CONFIRMATION_INVALID');
  });

  it('keeps only the latest link of an address, and refuses one that expired', async () => {
    const email = `twice-${randomUUID()}@example.com`;
    await register(email);
    await register(email);
    const [first, second] = mailTo(email).map((mail) => /\/confirm-email#([A-Za-z0-9_-]{43})/.exec(bodyOf(mail.raw))![1]!);
    expect((await confirm(first!)).statusCode).toBe(400);
    await db.pool.query(`UPDATE pending_registrations SET expires_at = now() - interval '1 second' WHERE email = $1`, [email]);
    expect((await confirm(second!)).statusCode).toBe(400);
  });
});

describe('registering without email set up', () => {
  it('creates the account at once and refuses a taken address with 409 (nothing can reach the address to tell only its owner)', async () => {
    const owner = await registerOwner(plain.app);
    const taken = await plain.app.inject({ method: 'POST', url: '/api/auth/register', headers: { origin: testPublicUrl }, payload: { email: owner.email, password: testPassword } });
    expect(taken.statusCode).toBe(409);
  });
});
