// One website's site analytics over a date range (spec sections 2, 3 and 9): metric tiles, visitors
// and page views per day, top pages, traffic sources, devices and mobile engagement. Shown on
// a website's Traffic tab (and the AnalyticsPage). The charts load chart.js lazily;
// every number is listed as text too.
import { MetricTile } from '../../components/metric-tile';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ChartLine, Clock, Eye, FileText, Hourglass, LogOut, MapPin, Mail, Phone, Users, type LucideIcon } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { formatDecimal, formatDuration, formatNumber, formatRate } from '../../lib/format';
import { formatRange, type DateRange } from './date-range';
import type { DoughnutPart } from './doughnut-chart';
import { dailyAnalyticsQueryOptions, siteAnalyticsQueryOptions, type DailyAnalytics, type SiteAnalytics } from './queries';
import {
  describeTrafficTrend,
  formatTrendDay,
  getDevices,
  getTotalVisits,
  getTrafficSources,
  groupTrafficSources,
  shareOf,
  topPagesShown,
  truncatePath,
  type TrafficGroup,
} from './traffic';

const DoughnutChart = lazy(() => import('./doughnut-chart'));
const TrafficTrendChart = lazy(() => import('./traffic-trend-chart'));

const groupColors: Record<TrafficGroup, string> = {
  Direct: '#2563eb',
  'Search engines': '#16a34a',
  'Other websites': '#f59e0b',
  'Other referrers': '#94a3b8',
};

const deviceColors: Record<string, string> = {
  desktop: '#2563eb',
  mobile: '#16a34a',
  tablet: '#f59e0b',
  bot: '#a855f7',
  unknown: '#94a3b8',
};

export function SiteAnalyticsReport({ websiteId, range }: { websiteId: string; range: DateRange }) {
  const analytics = useQuery(siteAnalyticsQueryOptions(websiteId, range));
  // Asked beside the report, not after it: TrafficTrendCard reads the same query.
  useQuery(dailyAnalyticsQueryOptions(websiteId, range));
  if (analytics.isPending) return <LoadingState />;
  if (analytics.isError) return <ErrorState title="Analytics could not be loaded." error={analytics.error} />;
  const data = analytics.data;

  return (
    <div className="space-y-6">
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-3 xl:grid-cols-5">
        <MetricTile title="Unique Visitors" icon={Users} value={formatNumber(data.uniqueVisitors)} />
        <MetricTile title="Total Pageviews" icon={Eye} value={formatNumber(data.totalPageviews)} />
        <MetricTile title="Pages per Visit" icon={FileText} value={formatDecimal(data.pagesPerVisit, 2)} />
        <MetricTile title="Avg. Time on Site" icon={Hourglass} value={formatDuration(data.avgTimeOnSite)} />
        <MetricTile title="Bounce Rate" icon={LogOut} value={formatRate(data.bounceRate)} />
      </div>
      <TrafficTrendCard websiteId={websiteId} range={range} />
      <div className="grid gap-6 lg:grid-cols-2">
        <TopPagesCard pages={data.topPages} />
        <TrafficSourcesCard analytics={data} />
        <DevicesCard analytics={data} />
        <MobileEngagementCard engagement={data.mobileEngagement} />
      </div>
    </div>
  );
}

function NoData() {
  return <p className="py-8 text-center text-muted-foreground">No data available</p>;
}

/** Visitors and page views per day of the range (GET …/daily), as a line chart and a hidden table. */
function TrafficTrendCard({ websiteId, range }: { websiteId: string; range: DateRange }) {
  const daily = useQuery(dailyAnalyticsQueryOptions(websiteId, range));
  return (
    <Card role="region" aria-labelledby="traffic-trend-title">
      <CardHeader>
        <CardTitle id="traffic-trend-title">Visitors and Page Views</CardTitle>
        <CardDescription>Per day (UTC), {formatRange(range)}</CardDescription>
      </CardHeader>
      <CardContent>
        {daily.isPending ? (
          <LoadingState />
        ) : daily.isError ? (
          <p role="alert" className="py-8 text-center text-sm text-muted-foreground">
            Visitors per day could not be loaded. {daily.error instanceof Error ? daily.error.message : null}
          </p>
        ) : daily.data.every((day) => day.pageviews === 0) ? (
          <NoTrafficYet websiteId={websiteId} />
        ) : (
          <>
            <Suspense fallback={<div className="h-72" aria-hidden />}>
              <TrafficTrendChart series={daily.data} label={describeTrafficTrend(daily.data)} />
            </Suspense>
            <TrafficTrendTable series={daily.data} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** No page view in the range: either the snippet is not on the site yet, or nobody accepted. */
function NoTrafficYet({ websiteId }: { websiteId: string }) {
  return (
    <EmptyState
      title="No page views in this period"
      description="Page views are counted once a visitor accepts your banner. If you have not yet, install the snippet on every page of your website, then open one of its pages and accept: the visit appears here within seconds."
    >
      <ChartLine className="size-8 text-muted-foreground" aria-hidden />
      <Button asChild variant="outline">
        <Link to="/websites/$websiteId/installation" params={{ websiteId }}>
          Install the snippet
        </Link>
      </Button>
    </EmptyState>
  );
}

/** The chart's figures as a table for screen readers (a canvas says nothing to them). */
function TrafficTrendTable({ series }: { series: readonly DailyAnalytics[] }) {
  return (
    // In a visually hidden box: a table does not shrink to sr-only's 1px, and would widen a phone's page.
    <div className="sr-only">
      <table>
        <caption>Unique visitors and page views per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Unique visitors</th>
            <th scope="col">Page views</th>
          </tr>
        </thead>
        <tbody>
          {series.map((day) => (
            <tr key={day.day}>
              <th scope="row">{formatTrendDay(day.day, true)}</th>
              <td>{formatNumber(day.uniqueVisitors)}</td>
              <td>{formatNumber(day.pageviews)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TopPagesCard({ pages }: { pages: SiteAnalytics['topPages'] }) {
  const shown = pages.slice(0, topPagesShown);
  const most = Math.max(1, ...shown.map((page) => page.views));
  return (
    <Card role="region" aria-labelledby="top-pages-title">
      <CardHeader>
        <CardTitle id="top-pages-title">Top Pages</CardTitle>
        <CardDescription>The {topPagesShown} most viewed pages</CardDescription>
      </CardHeader>
      <CardContent>
        {shown.length === 0 ? (
          <NoData />
        ) : (
          <ol className="space-y-3">
            {shown.map((page) => (
              <li key={page.url} className="space-y-1">
                <div className="flex items-baseline justify-between gap-3 text-sm">
                  <span className="min-w-0 font-mono text-xs break-all" title={page.url}>
                    {truncatePath(page.url)}
                  </span>
                  <span className="shrink-0 font-medium">{formatNumber(page.views)} views</span>
                </div>
                <div className="h-2 overflow-hidden rounded-full bg-secondary" aria-hidden>
                  <div className="h-full rounded-full bg-primary" style={{ width: `${(page.views / most) * 100}%` }} />
                </div>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

/** A doughnut with its legend: each part's colour, name, count and share. */
function Breakdown({ parts, label, unit }: { parts: DoughnutPart[]; label: string; unit: string }) {
  const total = parts.reduce((sum, part) => sum + part.value, 0);
  return (
    <div className="flex flex-col items-center gap-6 sm:flex-row">
      <Suspense fallback={<div className="size-40 shrink-0" aria-hidden />}>
        <DoughnutChart parts={parts} label={label} />
      </Suspense>
      <ul className="w-full min-w-0 flex-1 space-y-2 text-sm">
        {parts.map((part) => (
          <li key={part.label} className="flex items-center justify-between gap-3">
            <span className="flex min-w-0 items-center gap-2">
              <span className="size-3 shrink-0 rounded-sm" style={{ backgroundColor: part.color }} aria-hidden />
              <span className="wrap-anywhere">{part.label}</span>
            </span>
            <span className="shrink-0 text-muted-foreground">
              <span className="font-medium text-foreground">{formatNumber(part.value)}</span> {unit} · {formatRate(shareOf(part.value, total))}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function TrafficSourcesCard({ analytics }: { analytics: SiteAnalytics }) {
  const groups = groupTrafficSources(analytics);
  const sources = getTrafficSources(analytics);
  const parts = groups.map(({ group, visits }) => ({ label: group, value: visits, color: groupColors[group] }));
  return (
    <Card role="region" aria-labelledby="traffic-sources-title">
      <CardHeader>
        <CardTitle id="traffic-sources-title">Traffic Sources</CardTitle>
        <CardDescription>Where visits came from</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {parts.length === 0 ? (
          <NoData />
        ) : (
          <>
            <Breakdown
              parts={parts}
              unit="visits"
              label={`Visits by source: ${parts.map((part) => `${part.label} ${part.value}`).join(', ')}`}
            />
            <div>
              <h4 className="mb-2 text-sm font-medium">Top referrers</h4>
              <ol className="divide-y text-sm">
                {sources.map((source) => (
                  <li key={source.label} className="flex items-center justify-between gap-3 py-2">
                    <span className="min-w-0 wrap-anywhere">{source.label}</span>
                    <span className="shrink-0 font-medium">{formatNumber(source.visits)} visits</span>
                  </li>
                ))}
              </ol>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function DevicesCard({ analytics }: { analytics: SiteAnalytics }) {
  const devices = getDevices(analytics);
  const parts = devices.map(({ device, label, visits }) => ({ label, value: visits, color: deviceColors[device] ?? '#64748b' }));
  return (
    <Card role="region" aria-labelledby="devices-title">
      <CardHeader>
        <CardTitle id="devices-title">Devices</CardTitle>
        <CardDescription>Visits by device, {formatNumber(getTotalVisits(analytics))} in total</CardDescription>
      </CardHeader>
      <CardContent>
        {parts.length === 0 ? (
          <NoData />
        ) : (
          <Breakdown parts={parts} unit="visits" label={`Visits by device: ${parts.map((part) => `${part.label} ${part.value}`).join(', ')}`} />
        )}
      </CardContent>
    </Card>
  );
}

function MobileEngagementCard({ engagement }: { engagement: SiteAnalytics['mobileEngagement'] }) {
  const items: { label: string; value: number; icon: LucideIcon }[] = [
    { label: 'Location map views', value: engagement.locationMapViews, icon: MapPin },
    { label: 'Opening hours views', value: engagement.hoursOperationViews, icon: Clock },
    { label: 'Contact form submissions', value: engagement.contactFormSubmissions, icon: Mail },
    { label: 'Tap-to-call actions', value: engagement.tapToCallActions, icon: Phone },
  ];
  return (
    <Card role="region" aria-labelledby="mobile-engagement-title">
      <CardHeader>
        <CardTitle id="mobile-engagement-title">Mobile Engagement</CardTitle>
        <CardDescription>What visitors did on your pages</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid grid-cols-2 gap-3">
          {items.map(({ label, value, icon: Icon }) => (
            <li key={label} className="rounded-md border p-3" aria-label={`${label}: ${formatNumber(value)}`}>
              <Icon className="mb-2 size-4 text-primary" aria-hidden />
              <p className="text-2xl font-bold">{formatNumber(value)}</p>
              <p className="text-xs text-muted-foreground">{label}</p>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
