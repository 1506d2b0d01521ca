// Invitation emails through a real SMTP server on loopback (smtp-server, as a mail relay behaves):
// the invited person receives the link; a relay that refuses the recipient, or none listening,
// leaves the invitation in place with its link shown to the admin, and the link never in a log.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { saveAdmin } from '../auth/admins';
import { createPasswordHasher } from '../auth/passwords';
import { buildTestApi, signInAdmin, type Client, type TestApi } from '../testing/api-app';
import { createSmtpMailer, type Mailer } from '@consentry/infra';
import { bodyOf, startLoopbackSmtp, type LoopbackSmtp } from './testing';

let db: TestDatabase;
let smtp: LoopbackSmtp;

beforeAll(async () => {
  db = await createTestDatabase('invitation_mail', { poolSize: 8 });
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  smtp = await startLoopbackSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await db?.drop();
});

async function apiWith(mailer: Mailer): Promise<{ api: TestApi; admin: Client }> {
  const api = await buildTestApi(db.pool, { mailer });
  return { api, admin: await signInAdmin(api.app, 'root', 'admin password 1') };
}

describe('with SMTP configured', () => {
  it('emails the invited person their link, from MAIL_FROM', async () => {
    const mailer = createSmtpMailer({ url: smtp.url, from: 'Consentry <no-reply@consentry.test>' });
    const { api, admin } = await apiWith(mailer);
    try {
      const email = `invitee-${randomUUID()}@example.com`;
      const response = await admin.request({ method: 'POST', url: '/api/admin/users/invite', payload: { email } });
      expect(response.statusCode).toBe(201);
      const { inviteUrl, inviteEmailSent } = response.json();
      expect(inviteEmailSent).toBe(true);
      const message = smtp.received.find((mail) => mail.to.includes(email));
      expect(message?.from).toBe('no-reply@consentry.test');
      expect(message!.raw).toMatch(/^Subject: Your invitation to Consentry\r$/m);
      expect(bodyOf(message!.raw)).toContain(inviteUrl);
    } finally {
      mailer.close();
      await api.close();
    }
  });

  it('keeps the invitation and shows the link when the relay refuses the recipient; the link is in no log line', async () => {
    const mailer = createSmtpMailer({ url: smtp.url, from: 'no-reply@consentry.test' });
    const { api, admin } = await apiWith(mailer);
    try {
      const email = `bounce-${randomUUID()}@example.com`;
      smtp.refused.add(email);
      const response = await admin.request({ method: 'POST', url: '/api/admin/users/invite', payload: { email } });
      expect(response.statusCode).toBe(201);
      const { inviteUrl, inviteEmailSent, status } = response.json();
      expect({ inviteEmailSent, status }).toEqual({ inviteEmailSent: false, status: 'invited' });
      const token = String(inviteUrl).split('#')[1]!;
      const logs = api.logs.join('');
      expect(logs).toContain('the invitation email could not be sent');
      expect(logs).toContain('Mailbox unavailable');
      expect(logs).not.toContain(token);
    } finally {
      mailer.close();
      await api.close();
    }
  });

  it('answers promptly with the link when no relay is listening', async () => {
    const mailer = createSmtpMailer({ url: 'smtp://127.0.0.1:1', from: 'no-reply@consentry.test', timeoutMs: 2000 });
    const { api, admin } = await apiWith(mailer);
    try {
      const response = await admin.request({ method: 'POST', url: '/api/admin/users/invite', payload: { email: `nobody-${randomUUID()}@example.com` } });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ inviteEmailSent: false, inviteUrl: expect.stringContaining('/invitation#') });
    } finally {
      mailer.close();
      await api.close();
    }
  });
});
