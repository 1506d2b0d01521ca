// Who is asking: the owner and/or admin of the request's session, checked against the read models on
// each request (a deleted or switched-off account, or a removed admin, is signed out at once).
import type { Queryable } from '@consentry/infra';
import { getUser, type User } from '@consentry/projections';
import type { FastifyRequest } from 'fastify';
import { findAdminStatus } from '../auth/credentials';
import type {} from '../auth/session-store';

export interface Viewer {
  readonly user: User | null;
  readonly adminUsername: string | null;
  /**
   * An admin signed in with a generated password that must be replaced first: no admin power at all
   * until they have chosen a new one (POST /api/admin/password). Only the `adminSession` rule lets
   * such a session in.
   */
  readonly pendingAdminUsername?: string | null;
}

/** Where the access check learns who is asking: the session (sessionViewers), or test headers. */
export interface ViewerSource {
  /** Who is asking, looked up once per request. */
  viewerOf(request: FastifyRequest): Promise<Viewer>;
  /** Looks again, as the store now has it: a long-lived request notices a sign-out elsewhere. */
  reload(request: FastifyRequest): Promise<Viewer>;
}

const viewers = new WeakMap<FastifyRequest, Promise<Viewer>>();

async function resolveViewer(db: Queryable, request: FastifyRequest): Promise<Viewer> {
  // request.session is null after a destroy in this request.
  const session = request.session ?? null;
  const userId = session?.userId;
  const adminUsername = session?.adminUsername;
  const [user, admin] = await Promise.all([
    userId === undefined ? null : getUser(db, userId),
    adminUsername === undefined ? null : findAdminStatus(db, adminUsername),
  ]);
  return {
    user: user !== null && user.status === 'registered' && user.isActive ? user : null,
    adminUsername: admin && !admin.mustChangePassword && adminUsername !== undefined ? adminUsername : null,
    pendingAdminUsername: admin?.mustChangePassword && adminUsername !== undefined ? adminUsername : null,
  };
}

/** The request's viewer from its session, looked up once per request. */
export function getViewer(db: Queryable, request: FastifyRequest): Promise<Viewer> {
  let viewer = viewers.get(request);
  if (!viewer) {
    viewer = resolveViewer(db, request);
    viewers.set(request, viewer);
  }
  return viewer;
}

/** Forgets the cached viewer after the session changed (sign-in, sign-out). */
export function forgetViewer(request: FastifyRequest): void {
  viewers.delete(request);
}

/** The session-backed viewers of the api. */
export function sessionViewers(db: Queryable): ViewerSource {
  return {
    viewerOf: (request) => getViewer(db, request),
    async reload(request) {
      // The session as the store now has it: null data after a sign-out elsewhere or its expiry.
      await request.session?.reload();
      forgetViewer(request);
      return getViewer(db, request);
    },
  };
}
