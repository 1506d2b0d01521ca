// The Dashboard (/dashboard, /admin): four stat cards with trends computed from the daily counts, the
// Consent Trends chart, the top three websites, identified visitors with the measured identification
// rate, consent by purpose and the ten most recent consent choices; owners know it as Overview (all
// their websites), with every website's recommendations, each opening that website's page.
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Ban, ChartPie, Globe, ListChecks, TrendingDown, TrendingUp, Minus, type LucideIcon } from 'lucide-react';
import { lazy, Suspense, type ComponentProps } from 'react';
import { MetricTile } from '../../components/metric-tile';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { formatNumber, formatRate } from '../../lib/format';
import { useSession } from '../auth/use-session';
import { ConsentRecordsList } from '../consents/consent-records-list';
import { DeadLettersNotice } from '../dead-letters/dead-letters-notice';
import { IdentifiedVisitorsCard } from '../leads/identified-visitors-card';
import { OwnerOverQuotaNotice } from '../subscription/over-quota-notice';
import { PurposeStatsCard } from '../stats/purpose-stats-card';
import { RecommendationsOverview } from '../recommendations/recommendations-page';
import { figureDefinitions } from '../stats/figure-definitions';
import { recentConsentsQueryOptions } from '../consents/queries';
import {
  consentStatsQueryOptions,
  dailyConsentStatsQueryOptions,
  trendWindowDays,
  websiteStatsQueryOptions,
} from '../stats/queries';
import { websitesQueryOptions, type Website } from '../websites/queries';
import { getWebsitesPath } from '../websites/redirects';
import {
  buildDailySeries,
  getCountTrend,
  getNewWebsitesTrend,
  getRateTrend,
  getTrendWindows,
  type Trend,
} from './trends';

const ConsentTrendsChart = lazy(() => import('./consent-trends-chart'));

export const topWebsitesShown = 3;

export function DashboardPage() {
  const stats = useQuery(consentStatsQueryOptions());
  const websites = useQuery(websitesQueryOptions());
  const daily = useQuery(dailyConsentStatsQueryOptions());
  const now = Date.now();
  const windows = daily.data ? getTrendWindows(daily.data, now) : null;
  const session = useSession();
  const navigate = useNavigate();

  return (
    <>
      {/* Owners know this screen as Overview (all their websites), the sidebar's first item. */}
      <PageHeader title={session.admin ? 'Dashboard' : 'Overview'} description="Consent activity across your websites." />
      {session.admin ? <DeadLettersNotice /> : null}
      {session.user ? <OwnerOverQuotaNotice /> : null}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          title="Total Consents"
          definition={figureDefinitions.totalConsents}
          icon={ListChecks}
          value={stats.data ? formatNumber(stats.data.totalConsents) : undefined}
          isError={stats.isError}
          trend={windows ? getCountTrend(windows.current.total, windows.previous.total, true) : undefined}
        />
        <StatCard
          title="Active Websites"
          definition={figureDefinitions.activeWebsites}
          icon={Globe}
          value={websites.data ? formatNumber(websites.data.filter((website) => website.isActive).length) : undefined}
          isError={websites.isError}
          trend={websites.data ? getNewWebsitesTrend(websites.data, now) : undefined}
        />
        <StatCard
          title="Consent Rate"
          definition={figureDefinitions.consentRate}
          icon={ChartPie}
          value={stats.data ? formatRate(stats.data.consentRate) : undefined}
          isError={stats.isError}
          trend={windows ? getRateTrend(windows.current, windows.previous) : undefined}
        />
        <StatCard
          title="Declined"
          definition={figureDefinitions.declined}
          icon={Ban}
          value={stats.data ? formatNumber(stats.data.declinedConsents) : undefined}
          isError={stats.isError}
          trend={windows ? getCountTrend(windows.current.declined, windows.previous.declined, false) : undefined}
        />
      </div>

      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2" role="region" aria-labelledby="consent-trends-title">
          <CardHeader>
            <CardTitle id="consent-trends-title">Consent Trends</CardTitle>
            <CardDescription>Accepted and declined choices per day, last {trendWindowDays} days</CardDescription>
          </CardHeader>
          <CardContent>
            {daily.isPending ? (
              <LoadingState />
            ) : daily.isError ? (
              <p className="py-8 text-center text-muted-foreground">No data available</p>
            ) : (
              <Suspense fallback={<LoadingState />}>
                <ConsentTrendsChart series={buildDailySeries(daily.data, trendWindowDays, now)} />
              </Suspense>
            )}
          </CardContent>
        </Card>
        <TopWebsitesCard />
      </div>

      <section className="mt-6" aria-labelledby="recommendations-title">
        <h2 id="recommendations-title" className="mb-3 text-lg font-semibold">
          Recommendations
        </h2>
        <RecommendationsOverview onOpen={(websiteId) => void navigate({ to: '/websites/$websiteId/overview', params: { websiteId } })} />
      </section>

      <IdentifiedVisitorsCard className="mt-6" />

      <PurposeStatsCard className="mt-6" description="Acceptance per purpose and how visitors chose, across your websites, all time" />

      <RecentActivityCard websites={websites.data ?? []} />
    </>
  );
}

const toneClasses: Record<Trend['tone'], string> = {
  positive: 'bg-green-100 text-green-800',
  negative: 'bg-red-100 text-red-800',
  neutral: 'bg-secondary text-secondary-foreground',
};

const directionIcons: Record<Trend['direction'], LucideIcon> = { up: TrendingUp, down: TrendingDown, flat: Minus };

/** A figure with its trend over the last 7 days against the 7 before. */
function StatCard({ trend, ...tile }: ComponentProps<typeof MetricTile> & { trend: Trend | undefined }) {
  const TrendIcon = trend ? directionIcons[trend.direction] : Minus;
  return (
    <MetricTile {...tile}>
      {trend ? (
        <Badge className={`rounded-md whitespace-normal ${toneClasses[trend.tone]}`}>
          <TrendIcon className="size-3" aria-hidden />
          {trend.label}
        </Badge>
      ) : null}
    </MetricTile>
  );
}

function TopWebsitesCard() {
  const session = useSession();
  const websiteStats = useQuery(websiteStatsQueryOptions());
  const top = websiteStats.data
    ? [...websiteStats.data].sort((a, b) => b.totalConsents - a.totalConsents).slice(0, topWebsitesShown)
    : [];

  return (
    <Card role="region" aria-labelledby="top-websites-title">
      <CardHeader>
        <CardTitle id="top-websites-title">Top Websites</CardTitle>
        <CardDescription>By number of consent choices</CardDescription>
      </CardHeader>
      <CardContent>
        {websiteStats.isPending ? (
          <LoadingState />
        ) : websiteStats.isError ? (
          <p className="py-8 text-center text-muted-foreground">No data available</p>
        ) : top.length === 0 ? (
          <div className="flex flex-col items-center gap-3 py-8 text-center">
            <p className="text-muted-foreground">No websites yet</p>
            <Button asChild variant="outline" size="sm">
              <Link to={getWebsitesPath(session)}>Go to Websites</Link>
            </Button>
          </div>
        ) : (
          <ol className="space-y-4">
            {top.map((item) => (
              <li key={item.website.id} className="flex items-center justify-between gap-3">
                <div className="min-w-0">
                  <Link
                    to="/websites/$websiteId/overview"
                    params={{ websiteId: item.website.id }}
                    className="font-medium wrap-anywhere text-foreground underline-offset-4 hover:text-primary hover:underline"
                  >
                    {item.website.name ?? item.website.domain}
                  </Link>
                  <p className="text-sm text-muted-foreground">{formatNumber(item.totalConsents)} consents</p>
                </div>
                <Badge variant="outline">{formatRate(item.consentRate)}</Badge>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

function RecentActivityCard({ websites }: { websites: Website[] }) {
  const consents = useQuery(recentConsentsQueryOptions());
  const websiteNames = new Map(websites.map((website) => [website.id, website.name]));

  return (
    <Card className="mt-6" role="region" aria-labelledby="recent-activity-title">
      <CardHeader>
        <CardTitle id="recent-activity-title">Recent Consent Activity</CardTitle>
        <CardDescription>The latest consent choices across your websites</CardDescription>
      </CardHeader>
      <CardContent>
        {consents.isPending ? (
          <LoadingState />
        ) : consents.isError ? (
          <ErrorState title="Recent activity could not be loaded." error={consents.error} />
        ) : consents.data.length === 0 ? (
          <EmptyState title="No consent data yet" description="Consent choices appear here once visitors answer your banner." />
        ) : (
          <ConsentRecordsList records={consents.data} websiteName={(record) => websiteNames.get(record.websiteId) ?? record.websiteId} />
        )}
      </CardContent>
    </Card>
  );
}
