// The consent figures and records of a website (its page's Consent tab): its consent totals and rate (all time), its consent by purpose,
// and its latest 50 consent records, taken from the latest 1,000 records grouped by website on the
// client (spec sections 7 and 9).
import { useQuery } from '@tanstack/react-query';
import { ChartPie, Clock, ListChecks } from 'lucide-react';
import { MetricTile } from '../../components/metric-tile';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { formatDateTime, formatNumber, formatRate } from '../../lib/format';
import { ConsentRecordsList } from '../consents/consent-records-list';
import { recentConsentsQueryOptions } from '../consents/queries';
import { PurposeStatsCard } from '../stats/purpose-stats-card';
import { websiteStatsQueryOptions } from '../stats/queries';
import { figureDefinitions } from '../stats/figure-definitions';
import { consentRecordsFetched } from './queries';

/** How many of one website's records are listed (of the latest `consentRecordsFetched`, grouped on the client). */
export const consentRecordsShown = 50;

export function ConsentDataTab({ websiteId }: { websiteId: string }) {
  const stats = useQuery(websiteStatsQueryOptions());
  const records = useQuery(recentConsentsQueryOptions(consentRecordsFetched));
  const websiteStats = stats.data?.find((item) => item.website.id === websiteId);
  const own = (records.data ?? []).filter((record) => record.websiteId === websiteId).slice(0, consentRecordsShown);
  const latest = own[0];

  return (
    <div className="space-y-6">
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        <MetricTile
          title="Total Consents"
          definition={figureDefinitions.totalConsents}
          icon={ListChecks}
          value={websiteStats ? formatNumber(websiteStats.totalConsents) : stats.isPending ? undefined : formatNumber(0)}
          isError={stats.isError}
        />
        <MetricTile
          title="Consent Rate"
          definition={figureDefinitions.consentRate}
          icon={ChartPie}
          value={websiteStats ? formatRate(websiteStats.consentRate) : stats.isPending ? undefined : formatRate(0)}
          isError={stats.isError}
        />
        <MetricTile
          className="col-span-2 sm:col-span-1"
          title="Last Consent"
          definition={figureDefinitions.lastConsent}
          icon={Clock}
          value={records.isPending ? undefined : latest ? formatDateTime(latest.timestamp) : '—'}
          isError={records.isError}
          small
        />
      </div>
      <PurposeStatsCard websiteId={websiteId} description="Acceptance per purpose and how visitors chose on this website, all time" />
      <Card role="region" aria-labelledby="website-consents-title">
        <CardHeader>
          <CardTitle id="website-consents-title">Recent Consent Records</CardTitle>
          <CardDescription>The latest {consentRecordsShown} consent choices on this website</CardDescription>
        </CardHeader>
        <CardContent>
          {records.isPending ? (
            <LoadingState />
          ) : records.isError ? (
            <ErrorState title="Consent records could not be loaded." error={records.error} />
          ) : own.length === 0 ? (
            <EmptyState title="No consent data yet" description="Consent choices appear here once visitors answer your banner." />
          ) : (
            <ConsentRecordsList records={own} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
