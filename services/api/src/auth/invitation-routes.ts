// Accepting an invitation through its link. The link is `${PUBLIC_URL}/invitation#<token>`: the
// token sits in the fragment, so it never reaches a server log or a Referer; the web page sends it
// in a POST body. POST /api/auth/invitation tells the page which email the link is for;
// POST /api/auth/invitation/accept sets the password, uses the link up and signs the person in.
import type { Db } from '@consentry/infra';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forgetViewer } from '../access';
import { acceptInvitation, findInvitation, InvitationInvalidError } from '../accounts/accounts';
import { errorsFor, toUserAnswer, userAnswer } from '../schemas';
import { assertStrongPassword } from './password-strength';
import { newPassword, type PasswordHasher } from './passwords';
import { personName } from './person-name';

/** 32 random bytes, base64url: 43 characters. */
const invitationToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the token from an invitation link');


export const invitationRoutes: FastifyPluginAsyncZod<{ pool: Db; hasher: PasswordHasher }> = async (app, { pool, hasher }) => {
  app.post(
    '/api/auth/invitation',
    {
      bodyLimit: 1024,
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'The invitation an invitation link stands for, while it can be accepted',
        body: z.object({ token: invitationToken }),
        response: { 200: z.object({ email: z.string(), expiresAt: z.iso.datetime() }), ...errorsFor(400) },
      },
    },
    async (request) => {
      const invitation = await findInvitation(pool, request.body.token);
      if (!invitation) throw new InvitationInvalidError();
      return { email: invitation.email, expiresAt: invitation.expiresAt };
    },
  );

  app.post(
    '/api/auth/invitation/accept',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Accept an invitation: choose a password, finish sign-up and sign in (the link works once)',
        body: z.object({ token: invitationToken, password: newPassword, firstName: personName('First name'), lastName: personName('Last name') }),
        response: { 201: z.object({ user: userAnswer }), ...errorsFor(400, 413, 415) },
      },
    },
    async (request, reply) => {
      const { token, password, firstName, lastName } = request.body;
      const invitation = await findInvitation(pool, token);
      if (!invitation) throw new InvitationInvalidError();
      assertStrongPassword(password, [invitation.email, firstName, lastName]);
      const user = await acceptInvitation({ pool, hasher }, token, { password, firstName, lastName });
      await request.session.regenerate(['adminUsername']);
      request.session.set('userId', user.id);
      forgetViewer(request);
      return reply.code(201).send({ user: toUserAnswer(user) });
    },
  );
};
