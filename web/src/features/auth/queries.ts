// Who is signed in. A regular user and an admin have separate sessions (spec section 6); each is read
// from its own endpoint and is null when nobody is signed in that way. Neither is retried.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { getJsonOrNull } from '../../lib/api';
import type { ApiSchemas } from '../../lib/api-types';

/** The signed-in owner as /api/auth/user answers. */
export type SessionUser = ApiSchemas['User'];

/** `mustChangePassword`: signed in with the generated first-admin password, /admin/password before anything else. */
export type AdminSession = ApiSchemas['Admin'];

export interface Session {
  user: SessionUser | null;
  admin: AdminSession | null;
}

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: ['auth', 'user'],
    queryFn: () => getJsonOrNull<SessionUser>('/api/auth/user'),
    retry: false,
  });
}

export function currentAdminQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'me'],
    queryFn: () => getJsonOrNull<AdminSession>('/api/admin/me'),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/**
 * Reads both sessions for a route guard. A failed read (the api down, a 5xx) counts as signed out:
 * authenticated state is the presence of data, never a guess.
 */
export async function loadSession(queryClient: QueryClient): Promise<Session> {
  const [user, admin] = await Promise.all([
    queryClient.ensureQueryData(currentUserQueryOptions()).catch(() => null),
    queryClient.ensureQueryData(currentAdminQueryOptions()).catch(() => null),
  ]);
  return { user, admin };
}

/** The name shown for the signed-in person: admin username, else full name, else email. */
export function getSessionLabel(session: Session): string {
  if (session.admin) return session.admin.username;
  const user = session.user;
  if (!user) return '';
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return fullName || user.email || 'Signed in';
}
