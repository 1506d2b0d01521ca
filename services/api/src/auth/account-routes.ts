// The signed-in owner's own account: PATCH /api/auth/user changes their name, POST
// /api/auth/password their password, POST /api/auth/email asks to move to a new email (a link to the
// new address, POST /api/auth/email/confirm when it is opened), DELETE /api/auth/user deletes the
// account. The current password is asked again for all but the name, so a session left open cannot
// be turned into a takeover. A password change signs the owner out everywhere else and gives this
// browser a fresh session id; an admin sign-in in the same browser stays.
import { emailAddress } from '@consentry/events';
import type { Db, Mailer } from '@consentry/infra';
import { getInstallationBranding } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forgetViewer, signedInOwner } from '../access';
import { confirmEmailChange, deleteOwnAccount, EmailNotSetUpError, requestEmailChange } from '../accounts/account-recovery';
import { changeUserPassword, renameUser } from '../accounts/account-settings';
import { ApiError } from '../errors';
import { confirmEmailChangeEmail, emailChangedNotice } from '../mail/account-emails';
import { errorsFor, toUserAnswer, userAnswer } from '../schemas';
import { newPassword, offeredPassword, type PasswordHasher } from './passwords';
import { personName } from './person-name';

export interface AccountRoutesOptions {
  readonly pool: Db;
  readonly hasher: PasswordHasher;
  /** Sends the link confirming a new email (SMTP_URL); without it the email cannot be changed. */
  readonly mailer?: Mailer;
  /** PUBLIC_URL: where the links point. */
  readonly publicUrl: string;
  /** The session cookie, cleared when the owner deletes their account. */
  readonly cookieName: string;
}

const renameBody = z.object({ firstName: personName('First name'), lastName: personName('Last name') });
const changePasswordBody = z.object({ currentPassword: offeredPassword, newPassword });
const changeEmailBody = z.object({ currentPassword: offeredPassword, newEmail: z.string().trim().pipe(emailAddress) });
/** 32 random bytes, base64url: 43 characters. */
const emailChangeToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the token from a confirmation link');
/** What the owner types to show they mean it. */
export const deleteAccountConfirmation = 'delete my account';
const deleteAccountBody = z.object({
  currentPassword: offeredPassword,
  confirmation: z.string().max(100).refine((text) => text.trim().toLowerCase() === deleteAccountConfirmation, {
    message: `type "${deleteAccountConfirmation}" to confirm`,
  }),
});
const emailChangeSentAnswer = z
  .object({ status: z.literal('confirmation_sent'), email: z.string(), message: z.string() })
  .meta({ id: 'EmailChangeSent' });

export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (app, { pool, hasher, mailer, publicUrl, cookieName }) => {
  // Guessing the current password through an open session is as slow as guessing it at sign-in.
  const perOwner = app.createRateLimit({ max: 10, timeWindow: 15 * 60_000, keyGenerator: (request) => `owner-password:${request.session?.userId ?? request.ip}` });

  app.patch(
    '/api/auth/user',
    {
      bodyLimit: 4 * 1024,
      config: { access: 'owner' },
      schema: {
        tags: ['auth'],
        summary: "Change the signed-in owner's name",
        description: 'A part left empty is cleared; a part of only spaces is refused.',
        body: renameBody,
        response: { 200: userAnswer, ...errorsFor(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const user = signedInOwner(request);
      const renamed = await renameUser(pool, user.id, request.body);
      forgetViewer(request);
      return toUserAnswer(renamed);
    },
  );

  async function checkPasswordAttempts(request: Parameters<typeof perOwner>[0]): Promise<void> {
    const limit = await perOwner(request);
    if (!limit.isAllowed && limit.isExceeded) {
      throw new ApiError(429, 'RATE_LIMITED', `Too many attempts; try again in ${Math.max(1, Math.ceil(limit.ttlInSeconds / 60))} minutes`);
    }
  }

  app.post(
    '/api/auth/password',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'owner' },
      schema: {
        tags: ['auth'],
        summary: "Replace the signed-in owner's password",
        description: 'Asks for the current password; the new one must be strong. Ends the owner’s other sessions; this one continues under a new id.',
        body: changePasswordBody,
        response: { 200: z.object({ success: z.literal(true) }), ...errorsFor(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const user = signedInOwner(request);
      await checkPasswordAttempts(request);
      await changeUserPassword({ pool, hasher }, user, request.body.currentPassword, request.body.newPassword);
      await request.session.regenerate(['adminUsername']);
      request.session.set('userId', user.id);
      forgetViewer(request);
      return reply.send({ success: true as const });
    },
  );

  app.post(
    '/api/auth/email',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'owner' },
      schema: {
        tags: ['auth'],
        summary: "Ask to change the signed-in owner's email: a single-use link goes to the new address",
        description:
          'Asks for the current password. The email changes only when the link (valid 24 hours) is opened: POST /api/auth/email/confirm. ' +
          'An address that has an account is refused (409 EMAIL_TAKEN). Without SMTP_URL nothing can confirm the address: 409 EMAIL_NOT_SET_UP.',
        body: changeEmailBody,
        response: { 202: emailChangeSentAnswer, ...errorsFor(400, 401, 403, 409, 413, 415, 429, 502) },
      },
    },
    async (request, reply) => {
      const user = signedInOwner(request);
      if (!mailer) throw new EmailNotSetUpError('a new address cannot be confirmed and your email cannot be changed. Ask your administrator to set up email.');
      await checkPasswordAttempts(request);
      const link = await requestEmailChange({ pool, hasher }, user, request.body.currentPassword, request.body.newEmail);
      const { companyName } = await getInstallationBranding(pool);
      try {
        await mailer.send(confirmEmailChangeEmail({ to: link.email, link: `${publicUrl}/confirm-email-change#${link.token}`, productName: companyName }));
      } catch (error) {
        // Never the link: it is a credential.
        request.log.warn({ userId: user.id, reason: error instanceof Error ? error.message : String(error) }, 'an email change confirmation could not be sent');
        throw new ApiError(502, 'EMAIL_NOT_SENT', 'The confirmation email could not be sent to this address; check it and try again');
      }
      return reply.code(202).send({
        status: 'confirmation_sent' as const,
        email: link.email,
        message: `We sent a link to ${link.email}. Your email changes when you open it (within 24 hours); until then, sign in with your current email.`,
      });
    },
  );

  app.post(
    '/api/auth/email/confirm',
    {
      bodyLimit: 1024,
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Confirm a new email through the link sent to it (works once): the owner signs in with it from now on',
        body: z.object({ token: emailChangeToken }),
        response: { 200: z.object({ user: userAnswer }), ...errorsFor(400, 409, 413, 415) },
      },
    },
    async (request) => {
      const { user, previousEmail } = await confirmEmailChange(pool, request.body.token);
      forgetViewer(request);
      if (mailer) {
        const { companyName } = await getInstallationBranding(pool);
        await mailer.send(emailChangedNotice({ to: previousEmail, newEmail: user.email, productName: companyName })).catch((error: unknown) => {
          request.log.warn({ userId: user.id, reason: error instanceof Error ? error.message : String(error) }, 'the email change notice could not be sent');
        });
      }
      return { user: toUserAnswer(user) };
    },
  );

  app.delete(
    '/api/auth/user',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'owner' },
      schema: {
        tags: ['auth'],
        summary: "Delete the signed-in owner's account, their websites with it, and sign out everywhere",
        description: `Asks for the current password and the words "${deleteAccountConfirmation}". Records UserDeleted; the account's name, email and password go with it.`,
        body: deleteAccountBody,
        response: { 200: z.object({ success: z.literal(true) }), ...errorsFor(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const user = signedInOwner(request);
      await checkPasswordAttempts(request);
      await deleteOwnAccount({ pool, hasher }, user, request.body.currentPassword);
      // Every session of the owner ended with the account; an admin signed in in this browser stays.
      if (request.session.adminUsername !== undefined) {
        await request.session.regenerate(['adminUsername']);
      } else {
        await request.session.destroy();
        reply.clearCookie(cookieName, { path: '/' });
      }
      forgetViewer(request);
      return reply.send({ success: true as const });
    },
  );
};
