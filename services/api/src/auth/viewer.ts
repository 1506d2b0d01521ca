// Who is asking: the owner and/or admin of the request's session, checked against the read models on
// each request (a deleted or switched-off account, or a removed admin, is signed out at once).
import type { Queryable } from '@consentry/infra';
import { getUser, type User } from '@consentry/projections';
import type { FastifyRequest } from 'fastify';
import { adminRequired, ApiError, notSignedIn } from '../errors';
import { findAdminStatus } from './credentials';
import type {} from './session-store';

export interface Viewer {
  readonly user: User | null;
  readonly adminUsername: string | null;
  /**
   * An admin signed in with a generated password that must be replaced first: no admin power at all
   * until they have chosen a new one (POST /api/admin/password). Only /api/admin/me, that route and
   * sign-out look at it.
   */
  readonly pendingAdminUsername?: string | null;
}

export const passwordChangeRequired = () =>
  new ApiError(403, 'PASSWORD_CHANGE_REQUIRED', 'Choose a new password before going on: the one you signed in with was generated for the first sign-in');

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

/** The request's viewer, looked up once per request. */
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

/** A signed-in owner or admin; 401 for nobody. */
export async function requireViewer(db: Queryable, request: FastifyRequest): Promise<Viewer> {
  const viewer = await getViewer(db, request);
  if (!viewer.user && !viewer.adminUsername) throw viewer.pendingAdminUsername ? passwordChangeRequired() : notSignedIn();
  return viewer;
}

/** A signed-in owner; 401 for nobody, 403 for an admin without an owner account. */
export async function requireUser(db: Queryable, request: FastifyRequest): Promise<User> {
  const viewer = await requireViewer(db, request);
  if (!viewer.user) throw new ApiError(403, 'OWNER_ACCOUNT_REQUIRED', 'This needs a website owner account; admins manage owners from User Management');
  return viewer.user;
}

/** A signed-in admin; 401 for nobody, 403 for a regular user. */
export async function requireAdmin(db: Queryable, request: FastifyRequest): Promise<string> {
  const viewer = await requireViewer(db, request);
  if (!viewer.adminUsername) throw adminRequired();
  return viewer.adminUsername;
}
