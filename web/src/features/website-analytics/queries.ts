// What /website-analytics reads on entry, for its route's loader: the websites and their consent
// totals (the cards and the Consent Data tab), and the open tab's own data for the website in the URL,
// through the query options the tabs use.
import type { QueryClient } from '@tanstack/react-query';
import { prefetchScreenData } from '../../lib/screen-data';
import { recentConsentsQueryOptions } from '../consents/queries';
import { scansQueryOptions } from '../scans/queries';
import { purposeStatsQueryOptions, websiteStatsQueryOptions } from '../stats/queries';
import { webhooksQueryOptions } from '../webhooks/queries';
import { websiteSettingsQueryOptions } from '../website-settings/queries';
import { websitesQueryOptions } from '../websites/queries';
import type { WebsiteAnalyticsSearch } from './search';

/** Records the Consent Data tab fetches to group on the client. */
export const consentRecordsFetched = 1000;

export function prefetchWebsiteAnalyticsPage(queryClient: QueryClient, { website, tab = 'consent' }: WebsiteAnalyticsSearch): void {
  const loads: Promise<unknown>[] = [queryClient.ensureQueryData(websitesQueryOptions()), queryClient.ensureQueryData(websiteStatsQueryOptions())];
  if (website !== undefined) {
    if (tab === 'consent') {
      loads.push(queryClient.ensureQueryData(recentConsentsQueryOptions(consentRecordsFetched)));
      loads.push(queryClient.ensureQueryData(purposeStatsQueryOptions({ websiteId: website })));
    }
    if (tab === 'settings' || tab === 'scan') loads.push(queryClient.ensureQueryData(websiteSettingsQueryOptions(website)));
    if (tab === 'scan') loads.push(queryClient.ensureQueryData(scansQueryOptions(website)));
    if (tab === 'webhooks') loads.push(queryClient.ensureQueryData(webhooksQueryOptions(website)));
  }
  return prefetchScreenData(loads);
}
