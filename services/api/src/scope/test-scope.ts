// For tests of owner-data plugins on their own: the principal named by test headers
// (x-test-user: <userId>, x-test-admin: 1 as the admin `admin`), scoped to that owner's websites from the read model.
// The real resolver (sessions) is tested with the accounts layer.
import type { Db } from '@consentry/infra';
import { listWebsites } from '@consentry/projections';
import type { ResolveScope } from './scope';

export function headerScope(pool: Db): ResolveScope {
  return async (request) => {
    if (request.headers['x-test-admin'] === '1') return { userId: null, isAdmin: true, adminUsername: 'admin', websiteIds: null };
    const userId = request.headers['x-test-user'];
    if (typeof userId !== 'string' || userId === '') return null;
    const websites = await listWebsites(pool, userId);
    return { userId, isAdmin: false, adminUsername: null, websiteIds: websites.map((website) => website.id) };
  };
}
