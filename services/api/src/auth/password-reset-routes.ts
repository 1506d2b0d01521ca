// A forgotten owner password. POST /api/auth/forgot-password emails a reset link (when SMTP_URL is
// set) and answers every address alike, without waiting for the mail, so it never tells which
// addresses have accounts; requests are throttled as sign-ins are (per account and address, per
// address, per account). The link is `${PUBLIC_URL}/reset-password#<token>` (the token stays in the
// fragment); POST /api/auth/reset-password/check names the account it is for, POST
// /api/auth/reset-password sets the new password, ends every session of the owner and signs in.
import { emailAddress } from '@consentry/events';
import type { Db, Mailer } from '@consentry/infra';
import { getInstallationBranding } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forgetViewer } from '../access';
import { EmailNotSetUpError, findPasswordReset, PasswordResetInvalidError, requestPasswordReset, resetPassword } from '../accounts/account-recovery';
import { errorBody } from '../errors';
import { passwordResetEmail } from '../mail/account-emails';
import { errorsFor, toUserAnswer, userAnswer } from '../schemas';
import { newPassword, type PasswordHasher } from './passwords';
import { createSignInThrottle, tallySecretFrom, type SignInThrottleOptions } from './sign-in-throttle';

export interface PasswordResetRoutesOptions {
  readonly pool: Db;
  readonly hasher: PasswordHasher;
  /** Sends reset links (SMTP_URL); without it owners are told to ask an admin for a link. */
  readonly mailer?: Mailer;
  /** PUBLIC_URL: where the links point. */
  readonly publicUrl: string;
  /** The session secret (the throttle's tallies are keyed by an HMAC under a secret derived from it). */
  readonly sessionSecret: string;
  /** The sign-in throttle's rules, applied to reset requests. */
  readonly throttle: SignInThrottleOptions;
}

/** 32 random bytes, base64url: 43 characters. */
const resetToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the token from a password reset link');

const resetSentAnswer = z
  .object({ status: z.literal('reset_sent'), message: z.string() })
  .meta({ id: 'PasswordResetSent', description: 'The same answer for every address: only an account’s owner gets the email' });
const resetSent = {
  status: 'reset_sent' as const,
  message: 'If an account uses this email, we sent it a link to choose a new password. The link works for 1 hour.',
};

export const passwordResetRoutes: FastifyPluginAsyncZod<PasswordResetRoutesOptions> = async (app, options) => {
  const { pool, hasher, mailer, publicUrl } = options;
  const throttle = createSignInThrottle(pool, tallySecretFrom(options.sessionSecret), options.throttle, {
    onSweepFailed: (error) => app.log.warn({ err: error }, 'deleting forgotten sign-in tallies failed'),
  });

  app.post(
    '/api/auth/forgot-password',
    {
      bodyLimit: 1024,
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Email a password reset link to an owner account (the same answer for every address)',
        description:
          'With SMTP_URL: 202 for every address; an account with this email gets a link valid 1 hour. Without SMTP_URL: 409 EMAIL_NOT_SET_UP for every address (an admin can create a link). Repeated requests wait as failed sign-ins do (429).',
        body: z.object({ email: z.string().trim().pipe(emailAddress) }),
        response: { 202: resetSentAnswer, ...errorsFor(400, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      if (!mailer) throw new EmailNotSetUpError('no reset link can be sent: ask your administrator for a password reset link.');
      const attempt = await throttle.attempt(`reset:${request.body.email.toLowerCase()}`, request.ip);
      if (!attempt.allowed) {
        const wait = Math.max(1, Math.ceil(attempt.retryAfterMs / 1000));
        const text = wait < 60 ? `${wait} second${wait === 1 ? '' : 's'}` : `${Math.ceil(wait / 60)} minutes`;
        return reply.code(429).header('retry-after', String(wait)).send(errorBody('RATE_LIMITED', `Too many reset requests; try again in ${text}`));
      }
      // Every request counts, as a failed sign-in does: asking again and again is slowed down.
      await attempt.failed();
      const link = await requestPasswordReset(pool, request.body.email);
      if (link) {
        // Not awaited: an address with an account must take as long to answer as one without.
        void getInstallationBranding(pool)
          .then(({ companyName }) => mailer.send(passwordResetEmail({ to: link.email, link: `${publicUrl}/reset-password#${link.token}`, productName: companyName })))
          .catch((error: unknown) => {
            // Never the link: it is a credential.
            request.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'a password reset email could not be sent');
          });
      }
      return reply.code(202).send(resetSent);
    },
  );

  app.post(
    '/api/auth/reset-password/check',
    {
      bodyLimit: 1024,
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'The account a password reset link is for, while the link works',
        body: z.object({ token: resetToken }),
        response: { 200: z.object({ email: z.string(), expiresAt: z.iso.datetime() }), ...errorsFor(400, 413, 415) },
      },
    },
    async (request) => {
      const reset = await findPasswordReset(pool, request.body.token);
      if (!reset) throw new PasswordResetInvalidError();
      return { email: reset.user.email, expiresAt: reset.expiresAt };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Choose a new password through a reset link (works once): every other session ends and this browser is signed in',
        body: z.object({ token: resetToken, newPassword }),
        response: { 200: z.object({ user: userAnswer }), ...errorsFor(400, 413, 415) },
      },
    },
    async (request, reply) => {
      const user = await resetPassword({ pool, hasher }, request.body.token, request.body.newPassword);
      await request.session.regenerate(['adminUsername']);
      request.session.set('userId', user.id);
      forgetViewer(request);
      return reply.send({ user: toUserAnswer(user) });
    },
  );
};
