// The signed-in owner's own account: PATCH /api/auth/user changes their name, POST
// /api/auth/password their password (the current one is asked again, so a session left open cannot
// be turned into a takeover). A password change signs the owner out everywhere else and gives this
// browser a fresh session id; an admin sign-in in the same browser stays.
import type { Db } from '@consentry/infra';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forgetViewer, signedInOwner } from '../access';
import { changeUserPassword, renameUser } from '../accounts/account-settings';
import { ApiError } from '../errors';
import { errorsFor, toUserAnswer, userAnswer } from '../schemas';
import { newPassword, offeredPassword, type PasswordHasher } from './passwords';
import { personName } from './person-name';

export interface AccountRoutesOptions {
  readonly pool: Db;
  readonly hasher: PasswordHasher;
}

const renameBody = z.object({ firstName: personName('First name'), lastName: personName('Last name') });
const changePasswordBody = z.object({ currentPassword: offeredPassword, newPassword });

export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (app, { pool, hasher }) => {
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
      const limit = await perOwner(request);
      if (!limit.isAllowed && limit.isExceeded) {
        throw new ApiError(429, 'RATE_LIMITED', `Too many attempts; try again in ${Math.max(1, Math.ceil(limit.ttlInSeconds / 60))} minutes`);
      }
      await changeUserPassword({ pool, hasher }, user, request.body.currentPassword, request.body.newPassword);
      await request.session.regenerate(['adminUsername']);
      request.session.set('userId', user.id);
      forgetViewer(request);
      return reply.send({ success: true as const });
    },
  );
};
