// User management for admins: the list with each user's websites, consents and latest activity;
// changing a user's tier, status, limits and active flag; deleting; inviting.
import { emailAddress, maxConsentsPerMonth, maxWebsites, subscriptionStatus, subscriptionTier } from '@consentry/events';
import type { Db } from '@consentry/infra';
import { getManagedUser, listManagedUsers, type ManagedUser } from '@consentry/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changeUserSubscription, deleteUser, inviteUser } from '../accounts/accounts';
import { requireAdmin } from '../auth/viewer';
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
  lastActivity: user.lastActivity,
});

const userChangeBody = z.object({ subscriptionTier, subscriptionStatus, maxWebsites, maxConsentsPerMonth, isActive: z.boolean() });

/** Spec sections 5 and 9: invitations default to the free tier, 1 website, 15 consents a month. */
const invitationBody = z.object({
  email: z.string().trim().pipe(emailAddress),
  subscriptionTier: subscriptionTier.default('free'),
  maxWebsites: maxWebsites.default(1),
  maxConsentsPerMonth: maxConsentsPerMonth.default(15),
});

const userParams = z.object({ userId: uuidParam });

export const adminUserRoutes: FastifyPluginAsyncZod<{ pool: Db }> = async (app, { pool }) => {
  async function answerFor(userId: string) {
    const user = await getManagedUser(pool, userId);
    if (!user) throw new Error(`User ${userId} is not in the read model after a change`);
    return toManagedUserAnswer(user);
  }

  app.get(
    '/api/admin/users',
    { schema: { tags: ['admin'], summary: 'Every user, newest first', response: { 200: z.array(managedUserAnswer), ...errorsFor(401, 403) } } },
    async (request) => {
      await requireAdmin(pool, request);
      return (await listManagedUsers(pool)).map(toManagedUserAnswer);
    },
  );

  app.put(
    '/api/admin/users/:userId',
    {
      bodyLimit: 16 * 1024,
      schema: {
        tags: ['admin'],
        summary: "Change a user's tier, status, limits and active flag (switching off signs them out)",
        params: userParams,
        body: userChangeBody,
        response: { 200: managedUserAnswer, ...errorsFor(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const admin = await requireAdmin(pool, request);
      await changeUserSubscription(pool, request.params.userId, request.body, admin);
      return answerFor(request.params.userId);
    },
  );

  app.delete(
    '/api/admin/users/:userId',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete a user: their websites are removed and they can no longer sign in',
        params: userParams,
        response: { 204: noContent, ...errorsFor(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const admin = await requireAdmin(pool, request);
      await deleteUser(pool, request.params.userId, admin);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/admin/users/invite',
    {
      bodyLimit: 16 * 1024,
      schema: {
        tags: ['admin'],
        summary: 'Invite a user: they complete sign-up by registering with this email and keep these limits',
        body: invitationBody,
        response: { 201: managedUserAnswer, ...errorsFor(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const admin = await requireAdmin(pool, request);
      const user = await inviteUser(pool, request.body, admin);
      return reply.code(201).send(await answerFor(user.id));
    },
  );
};
