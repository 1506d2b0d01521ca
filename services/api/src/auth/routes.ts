// Signing in and out. Owners: GET /api/login (to the web app's sign-in page), POST
// /api/auth/register and /api/auth/login answering `{ user }` (with email set up, registering
// answers 202 and POST /api/auth/confirm-email creates the account), GET /api/auth/user, POST
// /api/logout (GET asks to confirm). Admins: POST /api/admin/login answering `{ success, error }`
// whatever happens, POST /api/admin/logout, GET /api/admin/me. Both sign-ins slow down repeated
// failures (sign-in-throttle.ts: per account and address, never holding back an address that has
// not failed, on tallies every api process shares); registration is rate-limited per address. A
// sign-in issues a new session id (the old one stops working: no session fixation). Owner and admin sign-ins can share one session
// cookie; signing out of one keeps the other.
import { emailAddress } from '@consentry/events';
import { UnsafeTextError, type Db } from '@consentry/infra';
import { getInstallationBranding } from '@consentry/projections';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forgetViewer, signedInOwner, signedInViewer } from '../access';
import { authenticateUser, confirmRegistration, registerUser, requestRegistration, type AccountsDeps } from '../accounts/accounts';
import { describeError, errorBody } from '../errors';
import { alreadyRegisteredEmail, confirmRegistrationEmail } from '../mail/account-emails';
import type { Mailer } from '@consentry/infra';
import { errorsFor, toUserAnswer, userAnswer } from '../schemas';
import { findAdminPasswordHash } from './credentials';
import { assertStrongPassword } from './password-strength';
import { newPassword, offeredPassword, type PasswordHasher } from './passwords';
import { personName } from './person-name';
import { createSignInThrottle, defaultSignInThrottle, tallySecretFrom, type SignInThrottleOptions } from './sign-in-throttle';

export interface RateLimitRule {
  readonly max: number;
  readonly windowMs: number;
}

export interface SignInLimits {
  /** Failed sign-ins (owner and admin): see sign-in-throttle.ts. */
  readonly failures: SignInThrottleOptions;
  /** Account registrations from one client address. */
  readonly registrationsPerAddress: RateLimitRule;
}

export const defaultSignInLimits: SignInLimits = {
  failures: defaultSignInThrottle,
  registrationsPerAddress: { max: 30, windowMs: 15 * 60_000 },
};

export interface AuthRoutesOptions {
  readonly pool: Db;
  readonly hasher: PasswordHasher;
  readonly limits: SignInLimits;
  readonly cookieName: string;
  readonly onSignIn?: (kind: 'user' | 'admin', outcome: 'success' | 'failure' | 'rate_limited') => void;
  /**
   * With a mailer (SMTP_URL), registering sends a confirmation link and answers every address the
   * same way (202), so it never tells whether an address has an account; without one, the account
   * is created at once and an address that has one is refused (409 EMAIL_TAKEN).
   */
  readonly mailer?: Mailer;
  /** PUBLIC_URL: where the emails' links point. */
  readonly publicUrl: string;
  /** The session secret, from which the sign-in tallies' key is derived (tallySecretFrom). */
  readonly sessionSecret: string;
}

const registerBody = z.object({
  email: z.string().trim().pipe(emailAddress),
  password: newPassword,
  firstName: personName('First name'),
  lastName: personName('Last name'),
});
const loginBody = z.object({ email: z.string().trim().min(1).max(254), password: offeredPassword });
const userAuthAnswer = z.object({ user: userAnswer });
const confirmationSentAnswer = z
  .object({ status: z.literal('confirmation_sent'), message: z.string() })
  .meta({ id: 'ConfirmationSent', description: 'The same answer for every address: whether it has an account is told only to its owner, by email' });
const confirmationSent = {
  status: 'confirmation_sent' as const,
  message: 'Check your email: we sent a link to finish creating your account.',
};
/** 32 random bytes, base64url: 43 characters. */
const confirmationToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the token from a confirmation link');

const adminLoginBody = z.object({ username: z.string().min(1).max(100), password: offeredPassword });
const adminLoginAnswer = z
  .object({ success: z.boolean(), error: z.string().optional() })
  .meta({ id: 'AdminLoginAnswer', description: 'Spec section 3: success, and the error text when it failed' });
const adminAnswer = z
  .object({
    username: z.string(),
    mustChangePassword: z.boolean().meta({ description: 'Signed in with a generated password: POST /api/admin/password before anything else' }),
  })
  .meta({ id: 'Admin' });
const successAnswer = z.object({ success: z.literal(true) });

const invalidCredentials = 'Invalid credentials';

/** GET /api/logout: no script, no inline style (the CSP allows neither); the form posts to the same origin. */
const signOutPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign out</title></head>
<body>
<main>
<h1>Sign out?</h1>
<p>You are about to sign out of your account.</p>
<form method="post" action="/api/logout"><button type="submit">Sign out</button></form>
<p><a href="/dashboard">Stay signed in</a></p>
</main>
</body>
</html>
`;
const adminLoginFailureStatuses = [400, 401, 403, 413, 415, 429] as const;

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { pool, hasher, limits, cookieName } = options;
  const accounts: AccountsDeps = { pool, hasher };
  const onSignIn = options.onSignIn ?? (() => undefined);

  const registrations = app.createRateLimit({
    max: limits.registrationsPerAddress.max,
    timeWindow: limits.registrationsPerAddress.windowMs,
    keyGenerator: (request) => `register:${request.ip}`,
  });
  const throttle = createSignInThrottle(pool, tallySecretFrom(options.sessionSecret), limits.failures, {
    onSweepFailed: (error) => app.log.warn({ err: error }, 'deleting forgotten sign-in tallies failed'),
  });
  /**
   * Reporting how an attempt ended only corrects the tallies: if that fails, the attempt stays
   * counted as a failure (the safe side) and the sign-in goes on as decided.
   */
  const settle = (request: FastifyRequest, report: Promise<void>) =>
    report.catch((error: unknown) => request.log.warn({ err: error }, 'the sign-in throttle could not take back a failure'));

  const tooManyAttempts = (seconds: number) =>
    seconds < 60
      ? `Too many sign-in attempts; try again in ${seconds} second${seconds === 1 ? '' : 's'}`
      : `Too many sign-in attempts; try again in ${Math.ceil(seconds / 60)} minute${seconds > 60 ? 's' : ''}`;
  /** Whole seconds to wait, at least 1 (Retry-After). */
  const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

  /** Ends the owner or admin part of the session; the whole session when nothing else is left. */
  async function signOut(request: FastifyRequest, reply: FastifyReply, part: 'userId' | 'adminUsername'): Promise<void> {
    const session = request.session;
    const other = part === 'userId' ? session.adminUsername : session.userId;
    if (other !== undefined) {
      session.set(part, undefined);
    } else {
      await session.destroy();
      reply.clearCookie(cookieName, { path: '/' });
    }
    forgetViewer(request);
  }

  app.get(
    '/api/login',
    { config: { access: 'public' }, schema: { tags: ['auth'], summary: 'Go to the sign-in page of the web app', response: { 302: z.null().meta({ description: 'Redirect to /login' }) } } },
    async (_request, reply) => reply.redirect('/login', 302),
  );

  // Signing out changes state, so it is a POST (the Origin check refuses it cross-site). A link to
  // GET /api/logout (the spec's navigation target, an old bookmark) gets a page asking to confirm.
  app.get(
    '/api/logout',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'A page asking the owner to confirm signing out (the sign-out itself is POST /api/logout)',
        response: { 200: z.string().meta({ description: 'HTML with a Sign out button that POSTs to /api/logout' }) },
      },
    },
    async (_request, reply) => reply.type('text/html; charset=utf-8').serializer(String).send(signOutPage),
  );

  await app.register(async (form) => {
    // The confirm page's form posts an empty application/x-www-form-urlencoded body.
    form.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, null));
    form.post(
      '/api/logout',
      {
        bodyLimit: 1024,
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Sign the owner out (an admin sign-in in the same browser stays)',
          description: 'From the confirm page\'s form: 303 to /. From the app (JSON or no body): 200 { success: true }.',
          response: { 200: successAnswer, 303: z.null().meta({ description: 'Redirect to /' }) },
        },
      },
      async (request, reply) => {
        await signOut(request, reply, 'userId');
        if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) return reply.redirect('/', 303);
        return reply.send({ success: true as const });
      },
    );
  });

  app.post(
    '/api/auth/register',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Create an owner account and sign in; with email set up, send a confirmation link instead',
        description:
          'Without SMTP_URL: 201 with the signed-in user, 409 EMAIL_TAKEN for an address that has an account. ' +
          'With SMTP_URL: 202 for every address (a confirmation link to a new one, a notice to one that has an account); POST /api/auth/confirm-email creates the account.',
        body: registerBody,
        response: { 201: userAuthAnswer, 202: confirmationSentAnswer, ...errorsFor(400, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      // Creating accounts counts against the address only: it guesses nobody's password.
      const limit = await registrations(request);
      if (!limit.isAllowed && limit.isExceeded) {
        const wait = Math.max(1, limit.ttlInSeconds);
        onSignIn('user', 'rate_limited');
        return reply.code(429).header('retry-after', String(wait)).send(errorBody('RATE_LIMITED', tooManyAttempts(wait)));
      }
      const { email, password, firstName, lastName } = request.body;
      assertStrongPassword(password, [email, firstName, lastName]);
      if (options.mailer) {
        const outcome = await requestRegistration(accounts, { email, password, firstName, lastName });
        const { companyName } = await getInstallationBranding(pool);
        const message =
          outcome.kind === 'confirm'
            ? confirmRegistrationEmail({ to: outcome.email, link: `${options.publicUrl}/confirm-email#${outcome.token}`, productName: companyName })
            : alreadyRegisteredEmail({ to: outcome.email, signInUrl: `${options.publicUrl}/login`, productName: companyName, invited: outcome.invited });
        // Sent before answering in both cases, so both take as long; a failure is not the caller's to know.
        await options.mailer.send(message).catch((error: unknown) => {
          request.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'a registration email could not be sent');
        });
        return reply.code(202).send(confirmationSent);
      }
      const user = await registerUser(accounts, { email, password, firstName, lastName });
      await request.session.regenerate(['adminUsername']);
      request.session.set('userId', user.id);
      forgetViewer(request);
      onSignIn('user', 'success');
      return reply.code(201).send({ user: toUserAnswer(user) });
    },
  );

  app.post(
    '/api/auth/confirm-email',
    {
      bodyLimit: 1024,
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Confirm a registration through the emailed link: creates the account and signs in (the link works once)',
        body: z.object({ token: confirmationToken }),
        response: { 201: userAuthAnswer, ...errorsFor(400, 413, 415) },
      },
    },
    async (request, reply) => {
      const user = await confirmRegistration(pool, request.body.token);
      await request.session.regenerate(['adminUsername']);
      request.session.set('userId', user.id);
      forgetViewer(request);
      onSignIn('user', 'success');
      return reply.code(201).send({ user: toUserAnswer(user) });
    },
  );

  app.post(
    '/api/auth/login',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Sign an owner in', body: loginBody, response: { 200: userAuthAnswer, ...errorsFor(400, 401, 403, 413, 415, 429) } },
    },
    async (request, reply) => {
      // When the tallies cannot be read (the database away), this throws: the sign-in fails as any
      // does without a database, and no password is tried unthrottled.
      const attempt = await throttle.attempt(`user:${request.body.email.toLowerCase()}`, request.ip);
      if (!attempt.allowed) {
        const wait = secondsOf(attempt.retryAfterMs);
        onSignIn('user', 'rate_limited');
        return reply.code(429).header('retry-after', String(wait)).send(errorBody('RATE_LIMITED', tooManyAttempts(wait)));
      }
      // A throw (the database away) is no answer about the password: it is not held against anyone.
      const user = await authenticateUser(accounts, request.body.email, request.body.password).catch(async (error: unknown) => {
        await settle(request, attempt.withdrawn());
        throw error;
      });
      if (!user) {
        await attempt.failed();
        onSignIn('user', 'failure');
        return reply.code(401).send(errorBody('INVALID_CREDENTIALS', 'Invalid email or password'));
      }
      await settle(request, attempt.succeeded());
      await request.session.regenerate(['adminUsername']);
      request.session.set('userId', user.id);
      forgetViewer(request);
      onSignIn('user', 'success');
      return reply.send({ user: toUserAnswer(user) });
    },
  );

  app.get(
    '/api/auth/user',
    { config: { access: 'ownerSession' }, schema: { tags: ['auth'], summary: 'The signed-in owner', response: { 200: userAnswer, ...errorsFor(401) } } },
    async (request) => toUserAnswer(signedInOwner(request)),
  );

  app.post(
    '/api/admin/login',
    {
      bodyLimit: 16 * 1024,
      config: { access: 'public' },
      schema: {
        tags: ['admin auth'],
        summary: 'Sign an admin in',
        description: 'Always answers JSON `{ success, error }`, also for a malformed body (400) and when rate-limited (429).',
        body: adminLoginBody,
        response: {
          200: adminLoginAnswer,
          400: adminLoginAnswer,
          401: adminLoginAnswer,
          403: adminLoginAnswer,
          413: adminLoginAnswer,
          415: adminLoginAnswer,
          429: adminLoginAnswer,
          500: adminLoginAnswer,
        },
      },
      // The web form reads this answer as text and parses it: every failure is `{ success: false, error }`.
      errorHandler: (error: FastifyError, request, reply) => {
        const described = describeError(error);
        if (!described) request.log.error({ err: error }, 'admin sign-in failed');
        const statusCode = adminLoginFailureStatuses.find((status) => status === described?.statusCode) ?? (described ? 400 : 500);
        const message =
          error instanceof UnsafeTextError
            ? error.message
            : described?.code === 'INVALID_REQUEST'
              ? 'Username and password are required'
              : (described?.message ?? 'Something went wrong on our side');
        return reply.code(statusCode).send({ success: false, error: message });
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      // Throws when the tallies cannot be read, as for an owner.
      const attempt = await throttle.attempt(`admin:${username.trim().toLowerCase()}`, request.ip);
      if (!attempt.allowed) {
        const wait = secondsOf(attempt.retryAfterMs);
        onSignIn('admin', 'rate_limited');
        return reply.code(429).header('retry-after', String(wait)).send({ success: false, error: tooManyAttempts(wait) });
      }
      let valid: boolean;
      try {
        const passwordHash = await findAdminPasswordHash(pool, username);
        valid = passwordHash === null ? await hasher.verifyNothing(password) : await hasher.verify(passwordHash, password);
      } catch (error) {
        await settle(request, attempt.withdrawn());
        throw error;
      }
      if (!valid) {
        await attempt.failed();
        onSignIn('admin', 'failure');
        return reply.code(401).send({ success: false, error: invalidCredentials });
      }
      await settle(request, attempt.succeeded());
      await request.session.regenerate(['userId']);
      request.session.set('adminUsername', username);
      forgetViewer(request);
      onSignIn('admin', 'success');
      return reply.send({ success: true });
    },
  );

  app.post(
    '/api/admin/logout',
    { config: { access: 'public' }, schema: { tags: ['admin auth'], summary: 'Sign the admin out (an owner sign-in in the same browser stays)', response: { 200: successAnswer } } },
    async (request, reply) => {
      await signOut(request, reply, 'adminUsername');
      return reply.send({ success: true });
    },
  );

  app.get(
    '/api/admin/me',
    { config: { access: 'adminSession' }, schema: { tags: ['admin auth'], summary: 'The signed-in admin', response: { 200: adminAnswer, ...errorsFor(401) } } },
    async (request) => {
      const { adminUsername, pendingAdminUsername } = signedInViewer(request);
      if (adminUsername) return { username: adminUsername, mustChangePassword: false };
      // The adminSession rule let in an admin, or one who must still replace a generated password.
      return { username: pendingAdminUsername!, mustChangePassword: true };
    },
  );
};
