// POST /api/admin/password: a signed-in admin replaces their password. The first admin's generated
// password (shown once on the terminal at the first start) can only be used for this: until it is
// replaced, the session holds no admin power (access/viewer.ts: pendingAdminUsername). The current password
// is asked again, so a session left open cannot be turned into a takeover; the admin's other
// sessions end and this one gets a new id.
import type { Db } from '@consentry/infra';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forgetViewer, signedInViewer } from '../access';
import { ApiError, notSignedIn } from '../errors';
import { errorsFor } from '../schemas';
import { findAdminPasswordHash } from './credentials';
import { assertStrongPassword } from './password-strength';
import { newPassword, offeredPassword, type PasswordHasher } from './passwords';

export interface AdminPasswordRoutesOptions {
  readonly pool: Db;
  readonly hasher: PasswordHasher;
}

const changePasswordBody = z.object({ currentPassword: offeredPassword, newPassword });

export const adminPasswordRoutes: FastifyPluginAsyncZod<AdminPasswordRoutesOptions> = async (app, { pool, hasher }) => {
  // Guessing the current password through an open session is as slow as guessing it at sign-in.
  const perAdmin = app.createRateLimit({ max: 10, timeWindow: 15 * 60_000, keyGenerator: (request) => `admin-password:${request.session?.adminUsername ?? request.ip}` });

  app.post(
    '/api/admin/password',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'adminSession' },
      schema: {
        tags: ['admin auth'],
        summary: "Replace the signed-in admin's password",
        description: 'Required after the first sign-in with a generated password; ends the admin’s other sessions.',
        body: changePasswordBody,
        response: { 200: z.object({ success: z.literal(true) }), ...errorsFor(400, 401, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const viewer = signedInViewer(request);
      // The adminSession rule let in an admin, or one who must still replace a generated password.
      const username = (viewer.adminUsername ?? viewer.pendingAdminUsername)!;
      const limit = await perAdmin(request);
      if (!limit.isAllowed && limit.isExceeded) {
        throw new ApiError(429, 'RATE_LIMITED', `Too many attempts; try again in ${Math.ceil(limit.ttlInSeconds / 60)} minutes`);
      }
      const { currentPassword, newPassword: chosen } = request.body;
      const passwordHash = await findAdminPasswordHash(pool, username);
      if (passwordHash === null) throw notSignedIn();
      if (!(await hasher.verify(passwordHash, currentPassword))) {
        throw new ApiError(400, 'WRONG_PASSWORD', 'The current password is not correct');
      }
      if (chosen === currentPassword) throw new ApiError(400, 'SAME_PASSWORD', 'Choose a new password, not the current one');
      assertStrongPassword(chosen, [username]);
      const newHash = await hasher.hash(chosen);
      await pool.query({
        name: 'change-admin-password',
        text: 'UPDATE admin_credentials SET password_hash = $2, must_change_password = false, updated_at = now() WHERE username = $1',
        values: [username, newHash],
      });
      await pool.query({ name: 'session-end-admin', text: 'DELETE FROM sessions WHERE admin_username = $1', values: [username] });
      await request.session.regenerate(['userId']);
      request.session.set('adminUsername', username);
      forgetViewer(request);
      return reply.send({ success: true as const });
    },
  );
};
