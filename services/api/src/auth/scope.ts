// Which websites a viewer sees: an admin every website, an owner their own. Every read of websites,
// stats and consents goes through this, so another owner's data is never in reach. The same rule is
// offered to the other route plugins (export, verification, live updates) as a ResolveScope.
import type { Db, Queryable } from '@consentry/infra';
import { listWebsites, type Website } from '@consentry/projections';
import type { ResolveScope } from '../scope/scope';
import { forgetViewer, getViewer, passwordChangeRequired, type Viewer } from './viewer';

export async function websitesInScope(db: Queryable, viewer: Viewer): Promise<Website[]> {
  if (viewer.adminUsername) return listWebsites(db, null);
  if (viewer.user) return listWebsites(db, viewer.user.id);
  return [];
}

/** The session-backed scope resolver: null for nobody signed in, every website for an admin. */
export function createScopeResolver(pool: Db): ResolveScope {
  return async (request, options) => {
    if (options?.fresh) {
      // The session as the store now has it: null data after a sign-out elsewhere or its expiry.
      await request.session?.reload();
      forgetViewer(request);
    }
    const viewer = await getViewer(pool, request);
    if (viewer.adminUsername) return { userId: viewer.user?.id ?? null, isAdmin: true, adminUsername: viewer.adminUsername, websiteIds: null };
    if (!viewer.user) {
      if (viewer.pendingAdminUsername) throw passwordChangeRequired();
      return null;
    }
    const websites = await listWebsites(pool, viewer.user.id);
    return { userId: viewer.user.id, isAdmin: false, adminUsername: null, websiteIds: websites.map((website) => website.id) };
  };
}
