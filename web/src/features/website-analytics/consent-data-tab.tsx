// The Consent Data tab of a website: its consent totals and rate (all time), its consent by purpose,
// and its latest 50 consent records, taken from the latest 1,000 records grouped by website on the
// client (spec sections 7 and 9).
import { useQuery } from '@tanstack/react-query';
import { ChartPie, Clock, ListChecks, type LucideIcon } from 'lucide-react';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { formatDateTime, formatNumber, formatRate } from '../../lib/format';
import { ConsentRecordsList } from '../consents/consent-records-list';
import { recentConsentsQueryOptions } from '../consents/queries';
import { PurposeStatsCard } from '../stats/purpose-stats-card';
import { websiteStatsQueryOptions } from '../stats/queries';
import { figureDefinitions, type FigureDefinition } from '../stats/figure-definitions';
import { FigureHelp } from '../stats/figure-help';
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
        <Tile
          title="Total Consents"
          definition={figureDefinitions.totalConsents}
          icon={ListChecks}
          value={websiteStats ? formatNumber(websiteStats.totalConsents) : stats.isPending ? undefined : formatNumber(0)}
          isError={stats.isError}
        />
        <Tile
          title="Consent Rate"
          definition={figureDefinitions.consentRate}
          icon={ChartPie}
          value={websiteStats ? formatRate(websiteStats.consentRate) : stats.isPending ? undefined : formatRate(0)}
          isError={stats.isError}
        />
        <Tile
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

function Tile({
  title,
  definition,
  icon: Icon,
  value,
  isError,
  small,
  className,
}: {
  title: string;
  definition: FigureDefinition;
  icon: LucideIcon;
  value: string | undefined;
  isError: boolean;
  small?: boolean;
  className?: string;
}) {
  return (
    <Card className={className}>
      <CardHeader className="flex-row items-start justify-between gap-2 p-4 pb-2 sm:p-6 sm:pb-2">
        <CardTitle className="flex items-center gap-1 text-sm font-medium text-muted-foreground">
          {title}
          <FigureHelp title={title} definition={definition} />
        </CardTitle>
        <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
        <p className={small ? 'text-lg font-bold' : 'text-3xl font-bold'} aria-label={`${title}: ${value ?? (isError ? 'unavailable' : 'loading')}`}>
          {value ?? (isError ? '—' : '…')}
        </p>
        <p className="text-xs text-muted-foreground">
          {definition.counts}
        </p>
      </CardContent>
    </Card>
  );
}
