// What the Dashboard (/dashboard, /admin) reads on entry, for its routes' loaders: the query options
// of its cards, so the loader and the cards share each key. Dead letters are an admin's; the plan
// usage (the over-quota notice) an owner's.
import type { QueryClient } from '@tanstack/react-query';
import { prefetchScreenData } from '../../lib/screen-data';
import type { Session } from '../auth/queries';
import { recentConsentsQueryOptions } from '../consents/queries';
import { deadLettersQueryOptions } from '../dead-letters/queries';
import { identifiedVisitorsQueryOptions } from '../leads/queries';
import { allRecommendationsQueryOptions } from '../recommendations/queries';
import { consentStatsQueryOptions, dailyConsentStatsQueryOptions, purposeStatsQueryOptions, websiteStatsQueryOptions } from '../stats/queries';
import { subscriptionUsageQueryOptions } from '../subscription/queries';
import { websitesQueryOptions } from '../websites/queries';

export function prefetchDashboard(queryClient: QueryClient, session: Session): void {
  return prefetchScreenData([
    queryClient.ensureQueryData(consentStatsQueryOptions()),
    queryClient.ensureQueryData(websitesQueryOptions()),
    queryClient.ensureQueryData(dailyConsentStatsQueryOptions()),
    queryClient.ensureQueryData(websiteStatsQueryOptions()),
    queryClient.ensureQueryData(identifiedVisitorsQueryOptions()),
    queryClient.ensureQueryData(purposeStatsQueryOptions()),
    queryClient.ensureQueryData(recentConsentsQueryOptions()),
    queryClient.ensureQueryData(allRecommendationsQueryOptions()),
    ...(session.admin ? [queryClient.ensureQueryData(deadLettersQueryOptions())] : []),
    ...(session.user ? [queryClient.ensureQueryData(subscriptionUsageQueryOptions())] : []),
  ]);
}
