// Owners' account self-service by link, against a real SMTP server on loopback: a forgotten password
// (the same answer for every address, throttled, a single-use link that expires), an admin's reset
// link to hand over, a new email confirmed through the new address, and deleting one's own account.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStream, sealAll, signerFromPrivateKey, verifyLedger } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { createSmtpMailer, type Mailer } from '@consentry/infra';
import { inviteUser } from '../accounts/accounts';
import { bodyOf, startLoopbackSmtp, type LoopbackSmtp } from '../mail/testing';
import {
  addWebsiteAs,
  buildTestApi,
  clientWith,
  registerOwner,
  sessionCookieOf,
  signInAdmin,
  testPassword,
  testPublicUrl,
  type Client,
  type SignedInUser,
  type TestApi,
} from '../testing/api-app';
import { saveAdmin } from './admins';
import { createPasswordHasher } from './passwords';
import { defaultSignInThrottle } from './sign-in-throttle';

let db: TestDatabase;
let smtp: LoopbackSmtp;
let mailer: Mailer;
/** Email set up (SMTP_URL). */
let api: TestApi;
/** No email set up. */
let plain: TestApi;
let admin: Client;

beforeAll(async () => {
  db = await createTestDatabase('account_recovery', { poolSize: 8 });
  smtp = await startLoopbackSmtp();
  mailer = createSmtpMailer({ url: smtp.url, from: 'no-reply@consentry.test' });
  api = await buildTestApi(db.pool, { mailer });
  plain = await buildTestApi(db.pool);
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  admin = await signInAdmin(plain.app, 'root', 'admin password 1');
});
afterAll(async () => {
  await api?.close();
  await plain?.close();
  mailer?.close();
  await smtp?.close();
  await db?.drop();
});

const newPassword = 'purple tractor orbit lantern';
const post = (target: TestApi, url: string, payload: Record<string, unknown>) => target.app.inject({ method: 'POST', url, headers: { origin: testPublicUrl }, payload });
const signIn = (email: string, password: string) => post(api, '/api/auth/login', { email, password });
const mailTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
const linkToken = (raw: string, page: string) => new RegExp(`/${page}#([A-Za-z0-9_-]{43})`).exec(bodyOf(raw))?.[1];

/** A new owner (registered where accounts are created at once), signed in on the api with email set up. */
async function newOwner(): Promise<SignedInUser> {
  const owner = await registerOwner(plain.app);
  return { ...owner, ...clientWith(api.app, owner.cookie) };
}

async function emailedResetToken(email: string, count = 1): Promise<string> {
  await expect.poll(() => mailTo(email).length).toBe(count);
  const token = linkToken(mailTo(email).at(-1)!.raw, 'reset-password');
  if (!token) throw new Error('no reset link in the email');
  return token;
}

async function secondSession(owner: SignedInUser): Promise<Client> {
  const cookie = sessionCookieOf(await signIn(owner.email, testPassword));
  if (!cookie) throw new Error('no second session');
  return clientWith(api.app, cookie);
}

describe('when an owner forgot their password', () => {
  it('answers an address with an account and one without exactly alike; only the account gets an email', async () => {
    const owner = await newOwner();
    const unknown = `nobody-${randomUUID()}@example.com`;
    const [forOwner, forUnknown] = [await post(api, '/api/auth/forgot-password', { email: owner.email.toUpperCase() }), await post(api, '/api/auth/forgot-password', { email: unknown })];
    expect(forOwner.statusCode).toBe(202);
    expect(forUnknown.statusCode).toBe(202);
    expect(forOwner.body).toBe(forUnknown.body);
    expect(forOwner.json()).toEqual({ status: 'reset_sent', message: expect.stringContaining('If an account uses this email') });
    await emailedResetToken(owner.email);
    expect(mailTo(owner.email)[0]!.raw).toMatch(/^Subject: Reset your Consentry password\r$/m);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailTo(unknown)).toHaveLength(0);
  });

  it('sets the new password through the link, once, signs this browser in and every other session out', async () => {
    const owner = await newOwner();
    const elsewhere = await secondSession(owner);
    await post(api, '/api/auth/forgot-password', { email: owner.email });
    const token = await emailedResetToken(owner.email);

    const check = await post(api, '/api/auth/reset-password/check', { token });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toEqual({ email: owner.email, expiresAt: expect.any(String) });
    const lifetimeMs = Date.parse(check.json<{ expiresAt: string }>().expiresAt) - Date.now();
    expect(lifetimeMs).toBeGreaterThan(55 * 60_000);
    expect(lifetimeMs).toBeLessThanOrEqual(60 * 60_000);

    const reset = await post(api, '/api/auth/reset-password', { token, newPassword });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ user: { id: owner.id, email: owner.email } });
    const signedIn = clientWith(api.app, sessionCookieOf(reset)!);
    expect((await signedIn.request({ method: 'GET', url: '/api/auth/user' })).json()).toMatchObject({ id: owner.id });
    expect((await elsewhere.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    expect((await signIn(owner.email, testPassword)).statusCode).toBe(401);
    expect((await signIn(owner.email, newPassword)).statusCode).toBe(200);

    const again = await post(api, '/api/auth/reset-password', { token, newPassword: 'another fresh pass phrase' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: { code: 'RESET_LINK_INVALID', message: expect.stringContaining('not valid any more') } });
  });

  it('keeps only the hash of the token, and the token in no log line', async () => {
    const owner = await newOwner();
    await post(api, '/api/auth/forgot-password', { email: owner.email });
    const token = await emailedResetToken(owner.email);
    const { rows } = await db.pool.query<{ row: string }>('SELECT t::text AS row FROM password_reset_tokens t WHERE user_id = $1', [owner.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.row).not.toContain(token);
    expect(api.logs.join('')).not.toContain(token);
  });

  it('refuses a weak password and keeps the link usable', async () => {
    const owner = await newOwner();
    await post(api, '/api/auth/forgot-password', { email: owner.email });
    const token = await emailedResetToken(owner.email);
    const weak = await post(api, '/api/auth/reset-password', { token, newPassword: 'password1234' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ error: { code: 'WEAK_PASSWORD' } });
    expect((await post(api, '/api/auth/reset-password', { token, newPassword })).statusCode).toBe(200);
  });

  it('keeps only the latest link, and refuses one that expired', async () => {
    const owner = await newOwner();
    await post(api, '/api/auth/forgot-password', { email: owner.email });
    const first = await emailedResetToken(owner.email, 1);
    await post(api, '/api/auth/forgot-password', { email: owner.email });
    const second = await emailedResetToken(owner.email, 2);
    expect((await post(api, '/api/auth/reset-password/check', { token: first })).statusCode).toBe(400);
    expect((await post(api, '/api/auth/reset-password', { token: first, newPassword })).statusCode).toBe(400);
    await db.pool.query(`UPDATE password_reset_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [owner.id]);
    expect((await post(api, '/api/auth/reset-password', { token: second, newPassword })).statusCode).toBe(400);
    expect((await signIn(owner.email, testPassword)).statusCode).toBe(200);
  });

  it('sends nothing to an invitation not accepted yet (it is completed through its own link)', async () => {
    const email = `invited-${randomUUID()}@example.com`;
    await inviteUser(db.pool, { email, subscriptionTier: 'free' }, 'root');
    expect((await post(api, '/api/auth/forgot-password', { email })).statusCode).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailTo(email)).toHaveLength(0);
  });

  it('refuses a malformed email or token with what is wrong', async () => {
    const badEmail = await post(api, '/api/auth/forgot-password', { email: 'not an email' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json()).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    const badToken = await post(api, '/api/auth/reset-password', { token: 'short', newPassword });
    expect(badToken.statusCode).toBe(400);
    expect(badToken.json()).toMatchObject({ error: { code: 'INVALID_REQUEST', message: expect.stringContaining('password reset link') } });
  });

  it('slows down repeated requests for one address as failed sign-ins are', async () => {
    const strict = await buildTestApi(db.pool, {
      mailer,
      signInLimits: {
        failures: { ...defaultSignInThrottle, freePerAccountAndAddress: 2, freePerAddress: 1_000, freePerAccount: 1_000 },
        registrationsPerAddress: { max: 1_000, windowMs: 60_000 },
      },
    });
    try {
      const email = `throttled-${randomUUID()}@example.com`;
      const statuses = [];
      for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await post(strict, '/api/auth/forgot-password', { email })).statusCode);
      expect(statuses).toEqual([202, 202, 429]);
      const limited = await post(strict, '/api/auth/forgot-password', { email });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect(limited.json()).toMatchObject({ error: { code: 'RATE_LIMITED', message: expect.stringContaining('Too many reset requests') } });
    } finally {
      await strict.close();
    }
  });
});

describe('when email is not set up', () => {
  it('says so for every address alike, and points to the administrator', async () => {
    const owner = await registerOwner(plain.app);
    const known = await post(plain, '/api/auth/forgot-password', { email: owner.email });
    const unknown = await post(plain, '/api/auth/forgot-password', { email: `nobody-${randomUUID()}@example.com` });
    expect(known.statusCode).toBe(409);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ error: { code: 'EMAIL_NOT_SET_UP', message: expect.stringContaining('ask your administrator for a password reset link') } });
  });
});

describe('when an admin creates a reset link for an owner', () => {
  it('shows the link once; it works once, for 24 hours, and replaces an emailed one', async () => {
    const owner = await registerOwner(plain.app);
    await post(api, '/api/auth/forgot-password', { email: owner.email });
    const emailed = await emailedResetToken(owner.email);
    const response = await admin.request({ method: 'POST', url: `/api/admin/users/${owner.id}/password-reset` });
    expect(response.statusCode).toBe(201);
    const { resetUrl, expiresAt } = response.json<{ resetUrl: string; expiresAt: string }>();
    expect(resetUrl).toMatch(new RegExp(`^${testPublicUrl}/reset-password#[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(23 * 60 * 60_000);
    const token = resetUrl.split('#')[1]!;
    expect(plain.logs.join('')).not.toContain(token);

    expect((await post(plain, '/api/auth/reset-password', { token: emailed, newPassword })).statusCode).toBe(400);
    expect((await post(plain, '/api/auth/reset-password', { token, newPassword })).statusCode).toBe(200);
    expect((await post(plain, '/api/auth/reset-password', { token, newPassword: 'another fresh pass phrase' })).statusCode).toBe(400);
    expect((await post(plain, '/api/auth/login', { email: owner.email, password: newPassword })).statusCode).toBe(200);
  });

  it('refuses an invitation not accepted yet, a switched-off account, an unknown user, and anyone but an admin', async () => {
    const { user } = await inviteUser(db.pool, { email: `invited-${randomUUID()}@example.com`, subscriptionTier: 'free' }, 'root');
    const invited = await admin.request({ method: 'POST', url: `/api/admin/users/${user.id}/password-reset` });
    expect(invited.statusCode).toBe(409);
    expect(invited.json()).toMatchObject({ error: { code: 'NOT_REGISTERED', message: expect.stringContaining('new invitation') } });
    expect((await admin.request({ method: 'POST', url: `/api/admin/users/${randomUUID()}/password-reset` })).statusCode).toBe(404);
    const owner = await registerOwner(plain.app);
    expect((await owner.request({ method: 'POST', url: `/api/admin/users/${owner.id}/password-reset` })).statusCode).toBe(403);
    const switchedOff = await registerOwner(plain.app);
    await admin.request({
      method: 'PUT',
      url: `/api/admin/users/${switchedOff.id}`,
      payload: { subscriptionTier: 'free', subscriptionStatus: 'active', maxWebsites: 1, maxConsentsPerMonth: 10_000, isActive: false },
    });
    const off = await admin.request({ method: 'POST', url: `/api/admin/users/${switchedOff.id}/password-reset` });
    expect(off.statusCode).toBe(409);
    expect(off.json()).toMatchObject({ error: { code: 'ACCOUNT_DISABLED', message: expect.stringContaining('switch it on first') } });
    const anonymous = await plain.app.inject({ method: 'POST', url: `/api/admin/users/${owner.id}/password-reset`, headers: { origin: testPublicUrl } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('when an owner changes their email', () => {
  it('changes it only when the link sent to the new address is opened, once; the old address is told', async () => {
    const owner = await newOwner();
    const newEmail = `moved-${randomUUID()}@example.com`;
    const asked = await owner.request({ method: 'POST', url: '/api/auth/email', payload: { currentPassword: testPassword, newEmail: ` ${newEmail.toUpperCase()} ` } });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toMatchObject({ status: 'confirmation_sent', email: newEmail, message: expect.stringContaining(newEmail) });
    await expect.poll(() => mailTo(newEmail).length).toBe(1);
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).json()).toMatchObject({ email: owner.email });
    expect((await signIn(newEmail, testPassword)).statusCode).toBe(401);

    const token = linkToken(mailTo(newEmail)[0]!.raw, 'confirm-email-change')!;
    const confirmed = await post(api, '/api/auth/email/confirm', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ user: { id: owner.id, email: newEmail } });
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).json()).toMatchObject({ email: newEmail });
    expect((await signIn(newEmail, testPassword)).statusCode).toBe(200);
    expect((await signIn(owner.email, testPassword)).statusCode).toBe(401);
    const events = await readStream(db.pool, `user-${owner.id}`);
    expect(events.at(-1)).toMatchObject({ type: 'UserEmailChanged', data: { userId: owner.id, email: newEmail } });
    await expect.poll(() => mailTo(owner.email).length).toBe(1);
    expect(bodyOf(mailTo(owner.email)[0]!.raw)).toContain(`now signs in with ${newEmail}`);

    const again = await post(api, '/api/auth/email/confirm', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: { code: 'EMAIL_CHANGE_LINK_INVALID' } });
    expect(api.logs.join('')).not.toContain(token);
  });

  it('refuses a wrong password, the same email and an email another account uses, with what is wrong', async () => {
    const owner = await newOwner();
    const other = await newOwner();
    const wrong = await owner.request({ method: 'POST', url: '/api/auth/email', payload: { currentPassword: 'not my password', newEmail: `x-${randomUUID()}@example.com` } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: { code: 'WRONG_PASSWORD' } });
    const same = await owner.request({ method: 'POST', url: '/api/auth/email', payload: { currentPassword: testPassword, newEmail: owner.email } });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ error: { code: 'SAME_EMAIL' } });
    const taken = await owner.request({ method: 'POST', url: '/api/auth/email', payload: { currentPassword: testPassword, newEmail: other.email } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: { code: 'EMAIL_TAKEN', message: 'An account with this email already exists' } });
    const invalid = await owner.request({ method: 'POST', url: '/api/auth/email', payload: { currentPassword: testPassword, newEmail: 'nope' } });
    expect(invalid.statusCode).toBe(400);
    expect(mailTo(other.email)).toHaveLength(0);
  });

  it('refuses the link when another account took the address meanwhile, and one that expired', async () => {
    const owner = await newOwner();
    const contested = `contested-${randomUUID()}@example.com`;
    await owner.request({ method: 'POST', url: '/api/auth/email', payload: { currentPassword: testPassword, newEmail: contested } });
    await expect.poll(() => mailTo(contested).length).toBe(1);
    const token = linkToken(mailTo(contested)[0]!.raw, 'confirm-email-change')!;
    await registerOwner(plain.app, { email: contested });
    const taken = await post(api, '/api/auth/email/confirm', { token });
    expect(taken.statusCode).toBe(409);
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).json()).toMatchObject({ email: owner.email });

    const later = `later-${randomUUID()}@example.com`;
    await owner.request({ method: 'POST', url: '/api/auth/email', payload: { currentPassword: testPassword, newEmail: later } });
    await expect.poll(() => mailTo(later).length).toBe(1);
    await db.pool.query(`UPDATE email_change_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [owner.id]);
    const expired = await post(api, '/api/auth/email/confirm', { token: linkToken(mailTo(later)[0]!.raw, 'confirm-email-change')! });
    expect(expired.statusCode).toBe(400);
  });

  it('says clearly that it cannot be done when email is not set up', async () => {
    const owner = await registerOwner(plain.app);
    const response = await owner.request({ method: 'POST', url: '/api/auth/email', payload: { currentPassword: testPassword, newEmail: `x-${randomUUID()}@example.com` } });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: { code: 'EMAIL_NOT_SET_UP', message: expect.stringContaining('your email cannot be changed') } });
  });
});

describe('when an owner deletes their account', () => {
  it('refuses without the current password or the confirming words, and keeps the account', async () => {
    const owner = await registerOwner(plain.app);
    const wrong = await owner.request({ method: 'DELETE', url: '/api/auth/user', payload: { currentPassword: 'not my password', confirmation: 'delete my account' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: { code: 'WRONG_PASSWORD' } });
    const unconfirmed = await owner.request({ method: 'DELETE', url: '/api/auth/user', payload: { currentPassword: testPassword, confirmation: 'yes' } });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json()).toMatchObject({ error: { code: 'INVALID_REQUEST', message: expect.stringContaining('type "delete my account" to confirm') } });
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
  });

  it('removes their websites, records UserDeleted, forgets their name, email and password, and signs them out everywhere', async () => {
    const owner = await registerOwner(plain.app);
    const cookie = sessionCookieOf(await post(plain, '/api/auth/login', { email: owner.email, password: testPassword }))!;
    const elsewhere = clientWith(plain.app, cookie);
    const website = await addWebsiteAs(owner, 'Doomed shop');
    expect((await owner.request({ method: 'PATCH', url: '/api/auth/user', payload: { firstName: 'Grace', lastName: 'Hopper' } })).statusCode).toBe(200);

    const response = await owner.request({ method: 'DELETE', url: '/api/auth/user', payload: { currentPassword: testPassword, confirmation: ' Delete my account ' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect(response.cookies.find((c) => c.name === 'consentry_session')?.value).toBe('');
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    expect((await elsewhere.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    expect((await post(plain, '/api/auth/login', { email: owner.email, password: testPassword })).statusCode).toBe(401);

    const events = await readStream(db.pool, `user-${owner.id}`);
    expect(events.at(-1)).toMatchObject({ type: 'UserDeleted', data: { userId: owner.id }, metadata: { actor: owner.id } });
    // Their name and email are gone from the log too, and what was rewritten is recorded.
    const logged = await db.pool.query<{ data: string }>('SELECT data::text AS data FROM events WHERE stream_id = $1', [`user-${owner.id}`]);
    expect(logged.rows.map((row) => row.data).join('\n')).not.toMatch(new RegExp(`${owner.email}|Grace|Hopper|Test`));
    expect(events.find((event) => event.type === 'UserRegistered')?.data).toMatchObject({ email: `erased-${owner.id}@erased.invalid`, firstName: null, lastName: null });
    const erasure = await readStream(db.pool, `owner-erasures-${owner.id}`);
    expect(erasure).toHaveLength(1);
    expect(erasure[0]).toMatchObject({ type: 'OwnerErased', data: { userId: owner.id } });
    expect((erasure[0]!.data as { rewritten: unknown[] }).rewritten).toHaveLength(2);
    expect((await readStream(db.pool, `website-${website.id}`)).at(-1)?.type).toBe('WebsiteRemoved');
    const left = await db.pool.query(
      `SELECT (SELECT count(*) FROM users WHERE id = $1)::int AS users, (SELECT count(*) FROM user_credentials WHERE user_id = $1)::int AS credentials,
              (SELECT count(*) FROM sessions WHERE user_id = $1)::int AS sessions, (SELECT count(*) FROM websites WHERE id = $2)::int AS websites`,
      [owner.id, website.id],
    );
    expect(left.rows[0]).toEqual({ users: 0, credentials: 0, sessions: 0, websites: 0 });
    expect((await admin.request({ method: 'GET', url: '/api/admin/users' })).json<Array<{ id: string }>>().map((user) => user.id)).not.toContain(owner.id);

    // The address is free again.
    expect((await registerOwner(plain.app, { email: owner.email })).id).not.toBe(owner.id);
  });

  it('leaves a ledger that still verifies, with the erased events sealed before', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const signer = signerFromPrivateKey(privateKey);
    const owner = await registerOwner(plain.app);
    await sealAll(db.pool, signer);
    const response = await owner.request({ method: 'DELETE', url: '/api/auth/user', payload: { currentPassword: testPassword, confirmation: 'delete my account' } });
    expect(response.statusCode).toBe(200);
    await sealAll(db.pool, signer);
    const report = await verifyLedger(db.pool, { publicKey });
    expect(report.findings).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.erased).toBeGreaterThanOrEqual(1);
  });

  it('keeps an admin signed in in the same browser', async () => {
    const owner = await registerOwner(plain.app);
    const both = await plain.app.inject({ method: 'POST', url: '/api/admin/login', headers: { origin: testPublicUrl, cookie: owner.cookie }, payload: { username: 'root', password: 'admin password 1' } });
    const shared = clientWith(plain.app, sessionCookieOf(both)!);
    expect((await shared.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
    const response = await shared.request({ method: 'DELETE', url: '/api/auth/user', payload: { currentPassword: testPassword, confirmation: 'delete my account' } });
    expect(response.statusCode).toBe(200);
    const after = clientWith(plain.app, sessionCookieOf(response)!);
    expect((await after.request({ method: 'GET', url: '/api/admin/me' })).statusCode).toBe(200);
    expect((await after.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
  });
});
