// What the Settings screen (/settings, /user/settings, /admin/settings) reads on entry, for its
// routes' loaders: the websites (Privacy), and an owner's banner branding and plan usage or the
// installation's branding for an admin, through the query options its cards use.
import type { QueryClient } from '@tanstack/react-query';
import { prefetchScreenData } from '../../lib/screen-data';
import type { Session } from '../auth/queries';
import { adminBrandingQueryOptions, ownerBrandingQueryOptions } from '../site/queries';
import { subscriptionUsageQueryOptions } from '../subscription/queries';
import { websitesQueryOptions } from '../websites/queries';

export function prefetchSettingsPage(queryClient: QueryClient, session: Session): void {
  return prefetchScreenData([
    queryClient.ensureQueryData(websitesQueryOptions()),
    ...(session.user ? [queryClient.ensureQueryData(ownerBrandingQueryOptions()), queryClient.ensureQueryData(subscriptionUsageQueryOptions())] : []),
    ...(session.admin ? [queryClient.ensureQueryData(adminBrandingQueryOptions())] : []),
  ]);
}
