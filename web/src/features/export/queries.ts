// The signed-in owner's recent exports (GET /api/exports): every download of consent data is
// recorded by the api, so the list survives reloads and other devices. An admin-only session has
// none (its exports are not an owner's).
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ApiAnswer } from '../../lib/api-types';
import { prefetchScreenData } from '../../lib/screen-data';
import { websitesQueryOptions } from '../websites/queries';

/** `websiteId` null: all websites. */
export type RecentExport = ApiAnswer<'/api/exports'>[number];

export function recentExportsQueryOptions() {
  return queryOptions({
    queryKey: ['exports'],
    queryFn: () => getJson<RecentExport[]>('/api/exports'),
  });
}

/** What the Export screen reads on entry, for its routes' loaders: the websites to choose from and the recent exports. */
export function prefetchExportPage(queryClient: QueryClient): void {
  return prefetchScreenData([queryClient.ensureQueryData(websitesQueryOptions()), queryClient.ensureQueryData(recentExportsQueryOptions())]);
}
