// User management for admins: the list with each user's websites, consents and latest activity;
// changing a user's tier, status, limits and active flag; deleting; inviting; a password reset link
// to hand over to an owner (for installations that send no email, or an owner without their inbox).
import { emailAddress, maxConsentsPerMonth, maxWebsites, subscriptionStatus, subscriptionTier } from '@consentry/events';
import type { Db } from '@consentry/infra';
import { getInstallationBranding, getManagedUser, listManagedUsers, type ManagedUser } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createPasswordResetLink } from '../accounts/account-recovery';
import { changeUserSubscription, deleteUser, invitationLifetimeDays, inviteUser, renewInvitation } from '../accounts/accounts';
import { invitationEmail } from '../mail/invitation-email';
import type { Mailer } from '@consentry/infra';
import { signedInAdmin } from '../access';
import { errorsFor, noContent, uuidParam } from '../schemas';

const managedUserAnswer = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    status: z.enum(['invited', 'registered']).meta({ description: 'invited: has not completed sign-up yet' }),
    subscriptionTier,
    subscriptionStatus,
    maxWebsites: z.int(),
    maxConsentsPerMonth: z.int(),
    isActive: z.boolean(),
    websiteCount: z.int(),
    consentCount: z.int(),
    currentMonthConsents: z.int().meta({ description: 'Consents on their websites this calendar month (UTC)' }),
    consentQuotaExceeded: z
      .boolean()
      .meta({ description: 'More consents this month than maxConsentsPerMonth: all are still recorded and counted; the owner is told to upgrade' }),
    lastActivity: z.iso.datetime(),
  })
  .meta({ id: 'ManagedUser' });

const toManagedUserAnswer = (user: ManagedUser): z.infer<typeof managedUserAnswer> => ({
  id: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  profileImageUrl: null,
  status: user.status,
  subscriptionTier: user.subscriptionTier,
  subscriptionStatus: user.subscriptionStatus,
  maxWebsites: user.maxWebsites,
  maxConsentsPerMonth: user.maxConsentsPerMonth,
  isActive: user.isActive,
  websiteCount: user.websiteCount,
  consentCount: user.consentCount,
  currentMonthConsents: user.currentMonthConsents,
  consentQuotaExceeded: user.currentMonthConsents > user.maxConsentsPerMonth,
  lastActivity: user.lastActivity,
});

const userChangeBody = z.object({ subscriptionTier, subscriptionStatus, maxWebsites, maxConsentsPerMonth, isActive: z.boolean() });

/**
 * Invitations default to the free tier (spec sections 5 and 9); limits left out are the chosen
 * tier's plan's, so an invited owner starts where a self-signed-up one does (issue 28).
 */
const invitationBody = z.object({
  email: z.string().trim().pipe(emailAddress),
  subscriptionTier: subscriptionTier.default('free'),
  maxWebsites: maxWebsites.optional().meta({ description: "Left out: the tier's plan's limit" }),
  maxConsentsPerMonth: maxConsentsPerMonth.optional().meta({ description: "Left out: the tier's plan's limit" }),
});

const userParams = z.object({ userId: uuidParam });

const invitationAnswer = managedUserAnswer.extend({
  inviteUrl: z.string().meta({ description: 'The single-use sign-up link; shown once: give it to the invited person' }),
  inviteExpiresAt: z.iso.datetime(),
  inviteEmailSent: z.boolean().meta({ description: 'Whether the link was also emailed (SMTP_URL configured and the server accepted it)' }),
});

export interface AdminUserRoutesOptions {
  readonly pool: Db;
  /** PUBLIC_URL: where invitation links point. */
  readonly publicUrl: string;
  /** Emails invitation links when set (SMTP_URL). */
  readonly mailer?: Mailer;
}

export const adminUserRoutes: FastifyPluginAsyncZod<AdminUserRoutesOptions> = async (app, { pool, publicUrl, mailer }) => {
  /** The invitation answer: the link, and whether it was also emailed (a delivery failure is logged, not thrown). */
  async function invitationAnswerFor(userId: string, token: string, log: { warn(object: object, message: string): void }) {
    const user = await answerFor(userId);
    const inviteUrl = `${publicUrl}/invitation#${token}`;
    const inviteExpiresAt = new Date(Date.now() + invitationLifetimeDays * 24 * 60 * 60 * 1000).toISOString();
    let inviteEmailSent = false;
    if (mailer) {
      const { companyName } = await getInstallationBranding(pool);
      try {
        await mailer.send(invitationEmail({ to: user.email, link: inviteUrl, productName: companyName, expiresAt: inviteExpiresAt }));
        inviteEmailSent = true;
      } catch (error) {
        // Never the link: it is a credential.
        log.warn({ userId, reason: error instanceof Error ? error.message : String(error) }, 'the invitation email could not be sent; the admin has the link');
      }
    }
    return { ...user, inviteUrl, inviteExpiresAt, inviteEmailSent };
  }

  async function answerFor(userId: string) {
    const user = await getManagedUser(pool, userId);
    if (!user) throw new Error(`User ${userId} is not in the read model after a change`);
    return toManagedUserAnswer(user);
  }

  app.get(
    '/api/admin/users',
    { config: { access: 'admin' }, schema: { tags: ['admin'], summary: 'Every user, newest first', response: { 200: z.array(managedUserAnswer), ...errorsFor(401, 403) } } },
    async () => (await listManagedUsers(pool)).map(toManagedUserAnswer),
  );

  app.put(
    '/api/admin/users/:userId',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: "Change a user's tier, status, limits and active flag (switching off signs them out)",
        params: userParams,
        body: userChangeBody,
        response: { 200: managedUserAnswer, ...errorsFor(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const admin = signedInAdmin(request);
      await changeUserSubscription(pool, request.params.userId, request.body, admin);
      return answerFor(request.params.userId);
    },
  );

  app.delete(
    '/api/admin/users/:userId',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Delete a user: their websites are removed and they can no longer sign in',
        params: userParams,
        response: { 204: noContent, ...errorsFor(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const admin = signedInAdmin(request);
      await deleteUser(pool, request.params.userId, admin);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/admin/users/invite',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Invite a user: they complete sign-up through the single-use link (emailed when SMTP is set up) and keep these limits',
        body: invitationBody,
        response: { 201: invitationAnswer, ...errorsFor(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const admin = signedInAdmin(request);
      const { user, token } = await inviteUser(pool, request.body, admin);
      return reply.code(201).send(await invitationAnswerFor(user.id, token, request.log));
    },
  );

  app.post(
    '/api/admin/users/:userId/invitation',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'A new invitation link for someone who has not accepted yet (the old link stops working)',
        params: userParams,
        response: { 200: invitationAnswer, ...errorsFor(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const admin = signedInAdmin(request);
      const token = await renewInvitation(pool, request.params.userId, admin);
      return invitationAnswerFor(request.params.userId, token, request.log);
    },
  );

  app.post(
    '/api/admin/users/:userId/password-reset',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'A single-use password reset link for an owner, to hand over (valid 24 hours; an earlier link stops working)',
        description: 'The link is shown once and sent nowhere: give it to the owner. Opening it lets them choose a new password, which signs them out everywhere else.',
        params: userParams,
        response: {
          201: z
            .object({
              resetUrl: z.string().meta({ description: 'The single-use link; shown once' }),
              expiresAt: z.iso.datetime(),
            })
            .meta({ id: 'PasswordResetLink' }),
          ...errorsFor(401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const admin = signedInAdmin(request);
      const { token, expiresAt } = await createPasswordResetLink(pool, request.params.userId, admin);
      return reply.code(201).send({ resetUrl: `${publicUrl}/reset-password#${token}`, expiresAt });
    },
  );
};
