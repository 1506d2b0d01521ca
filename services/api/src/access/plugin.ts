// The api's one access check: a preHandler that reads the route's rule (`config: { access }`,
// rules.ts) and refuses whoever it does not let in. A route registered without a rule stops the api
// from starting, and /api/docs shows each operation's rule as `x-access`.
import type { User } from '@consentry/projections';
import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { checkAccess, isAccessRule, type AccessRule } from './rules';
import type { Viewer, ViewerSource } from './viewer';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (access/rules.ts); every api route names one. */
    access?: AccessRule;
    /** The route's own 401 message for nobody signed in (default 'Sign in to continue'). */
    signInPrompt?: string;
  }
}

interface Admission {
  readonly viewer: Viewer;
  readonly viewers: ViewerSource;
}

const admissions = new WeakMap<FastifyRequest, Admission>();

export interface AccessControlOptions {
  /** Who is asking: the session (sessionViewers) in the api, x-test headers in plugin tests. */
  readonly viewers: ViewerSource;
}

/**
 * Registered in the api's context before its routes (fastify-plugin: the hooks cover every route of
 * that context, and only those).
 */
export const accessControl = fp<AccessControlOptions>(
  async (app, { viewers }) => {
    app.addHook('onRoute', (route) => {
      if (!isAccessRule(route.config?.access)) {
        throw new Error(`${String(route.method)} ${route.url} names no access rule: add config: { access } (services/api/src/access/rules.ts)`);
      }
    });
    // After validation, as the handlers used to check: a malformed request still answers 400 first.
    app.addHook('preHandler', async (request) => {
      const { access, signInPrompt } = request.routeOptions.config;
      // No rule: the not-found handler (every route has one, see onRoute above).
      if (access === undefined || access === 'public') return;
      const viewer = await viewers.viewerOf(request);
      checkAccess(access, viewer, signInPrompt);
      admissions.set(request, { viewer, viewers });
    });
  },
  { name: 'consentry-access-control' },
);

function admissionOf(request: FastifyRequest): Admission {
  const admission = admissions.get(request);
  // A handler asking for the viewer of a public route (or outside accessControl) is a bug, not a 401.
  if (!admission) throw new Error(`${request.method} ${request.routeOptions.url ?? request.url}: no access rule admitted a viewer`);
  return admission;
}

/** Who a `signedIn`, `owner`, `admin`, `ownerSession` or `adminSession` route let in. */
export function signedInViewer(request: FastifyRequest): Viewer {
  return admissionOf(request).viewer;
}

/** The owner an `owner` or `ownerSession` route let in (or the owner account of a `signedIn` viewer who has one). */
export function signedInOwner(request: FastifyRequest): User {
  const { user } = admissionOf(request).viewer;
  if (!user) throw new Error(`${request.method} ${request.routeOptions.url ?? request.url}: its access rule admits no owner account`);
  return user;
}

/** The username of the admin an `admin` route let in. */
export function signedInAdmin(request: FastifyRequest): string {
  const { adminUsername } = admissionOf(request).viewer;
  if (!adminUsername) throw new Error(`${request.method} ${request.routeOptions.url ?? request.url}: its access rule admits no admin`);
  return adminUsername;
}

/** Looks at who is asking again (a long-lived request noticing a sign-out); the route's rule is not checked again. */
export async function reloadViewer(request: FastifyRequest): Promise<Viewer> {
  const { viewers } = admissionOf(request);
  const viewer = await viewers.reload(request);
  admissions.set(request, { viewer, viewers });
  return viewer;
}

/** The OpenAPI transform with each operation's access rule added as `x-access`. */
export function withAccessRules<TSchema extends Parameters<SwaggerTransform>[0]['schema']>(transform: SwaggerTransform<TSchema>): SwaggerTransform<TSchema> {
  return (document) => {
    const transformed = transform(document);
    const access = document.route.config?.access;
    if (access === undefined || (transformed.schema as { hide?: boolean }).hide) return transformed;
    return { ...transformed, schema: { ...transformed.schema, 'x-access': access } as typeof transformed.schema };
  };
}
