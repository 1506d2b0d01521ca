// The Recommendations screen (/recommendations): with All Websites chosen, an overview of every
// website's report (last 30 days); with one website, its full report for the last 7, 30 or 90 days.
import { MetricTile } from '../../components/metric-tile';
import { useQuery } from '@tanstack/react-query';
import { ChartPie, Monitor, Smartphone, Users } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { NoWebsites } from '../websites/no-websites';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { formatCount, formatNumber, formatRate } from '../../lib/format';
import { websiteSettingsQueryOptions, type WebsiteSettings } from '../website-settings/queries';
import { websitesQueryOptions, type Website } from '../websites/queries';
import { allWebsitesValue, WebsiteSelect } from '../websites/website-select';
import {
  allRecommendationsQueryOptions,
  defaultRecommendationPeriod,
  overviewPeriod,
  recommendationPeriods,
  websiteRecommendationsQueryOptions,
  type RecommendationPeriod,
  type RecommendationReport,
  type WebsiteRecommendations,
} from './queries';
import { RecommendationCard, SeverityBadge } from './recommendation-card';

export function RecommendationsPage() {
  const websites = useQuery(websitesQueryOptions());
  const [choice, setChoice] = useState<string>(allWebsitesValue);
  const [days, setDays] = useState<RecommendationPeriod>(defaultRecommendationPeriod);
  const selected = websites.data?.find((website) => website.id === choice) ?? null;
  const overview = selected === null;

  return (
    <>
      <PageHeader title="Recommendations" description="Ways to raise your consent rate and keep your banner compliant." />
      <Card className="mb-6">
        <CardContent className="grid gap-4 pt-6 sm:grid-cols-2 lg:grid-cols-[minmax(0,24rem)_minmax(0,16rem)]">
          <div className="space-y-2">
            <Label htmlFor="recommendations-website">Website</Label>
            <WebsiteSelect
              id="recommendations-website"
              websites={websites.data ?? []}
              value={selected ? selected.id : allWebsitesValue}
              onValueChange={setChoice}
              allWebsitesLabel="All Websites"
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor="recommendations-period">Period</Label>
            <Select
              value={String(overview ? overviewPeriod : days)}
              onValueChange={(value) => setDays(Number(value) as RecommendationPeriod)}
              disabled={overview}
            >
              <SelectTrigger id="recommendations-period" aria-describedby={overview ? 'recommendations-period-hint' : undefined}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {recommendationPeriods.map((period) => (
                  <SelectItem key={period} value={String(period)}>
                    Last {period} days
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          {overview ? (
            <p id="recommendations-period-hint" className="text-xs text-muted-foreground sm:col-span-2">
              The overview covers the last {overviewPeriod} days. Choose a website to see 7 or 90 days.
            </p>
          ) : null}
        </CardContent>
      </Card>

      {websites.isPending ? (
        <LoadingState />
      ) : websites.isError ? (
        <ErrorState title="Websites could not be loaded." error={websites.error} />
      ) : websites.data.length === 0 ? (
        <Card>
          <NoWebsites description="Add a website and install its banner; recommendations follow from its data." />
        </Card>
      ) : selected ? (
        <WebsiteReport website={selected} days={days} />
      ) : (
        <RecommendationsOverview onOpen={setChoice} />
      )}
    </>
  );
}

/** Every website's recommendations; `onOpen` opens one website's report (here, or on its page). */
export function RecommendationsOverview({ onOpen }: { onOpen: (websiteId: string) => void }) {
  const reports = useQuery(allRecommendationsQueryOptions());
  if (reports.isPending) return <LoadingState />;
  if (reports.isError) return <ErrorState title="Recommendations could not be loaded." error={reports.error} />;
  const total = reports.data.reduce((sum, item) => sum + item.recommendations.length, 0);
  const urgent = reports.data.reduce(
    (sum, item) => sum + item.recommendations.filter((recommendation) => recommendation.severity === 'critical' || recommendation.severity === 'high').length,
    0,
  );
  return (
    <section aria-label="All websites" className="space-y-6">
      <p className="text-sm text-muted-foreground">
        {formatCount(total, 'recommendation')} for {formatCount(reports.data.length, 'website')}, {formatNumber(urgent)} of them critical
        or high, over the last {overviewPeriod} days.
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        {reports.data.map((item) => (
          <OverviewCard key={item.website.id} item={item} onOpen={() => onOpen(item.website.id)} />
        ))}
      </div>
    </section>
  );
}

const overviewShown = 3;

function OverviewCard({ item, onOpen }: { item: WebsiteRecommendations; onOpen: () => void }) {
  const titleId = `overview-${item.website.id}`;
  return (
    <Card role="article" aria-labelledby={titleId} className="flex min-w-0 flex-col">
      <CardHeader>
        <CardTitle id={titleId} className="break-words">
          {item.website.name}
        </CardTitle>
        <CardDescription className="wrap-anywhere">{item.website.domain}</CardDescription>
        <p className="text-sm">
          <span className="font-semibold">{formatRate(item.consentRate)}</span> consent rate ·{' '}
          <span className="font-semibold">{formatNumber(item.totalConsents)}</span> consents
        </p>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        {item.recommendations.length === 0 ? (
          <p className="py-4 text-center text-muted-foreground">No recommendations available</p>
        ) : (
          <>
            <ul className="space-y-2">
              {item.recommendations.slice(0, overviewShown).map((recommendation) => (
                <li key={recommendation.id} className="flex items-start gap-2 text-sm">
                  <SeverityBadge severity={recommendation.severity} className="mt-0.5" />
                  <span className="min-w-0">{recommendation.title}</span>
                </li>
              ))}
            </ul>
            {item.recommendations.length > overviewShown ? (
              <p className="text-xs text-muted-foreground">and {formatNumber(item.recommendations.length - overviewShown)} more</p>
            ) : null}
          </>
        )}
        <Button variant="outline" className="mt-auto self-start" onClick={onOpen}>
          View details
        </Button>
      </CardContent>
    </Card>
  );
}

export function WebsiteReport({ website, days }: { website: Website; days: RecommendationPeriod }) {
  const report = useQuery(websiteRecommendationsQueryOptions(website.id, days));
  const settings = useQuery(websiteSettingsQueryOptions(website.id));
  if (report.isPending) return <LoadingState />;
  if (report.isError) return <ErrorState title="Recommendations could not be loaded." error={report.error} />;
  const values = getMetricValues(report.data, settings.data);
  return (
    <section aria-label={`Recommendations for ${website.name}`} className="space-y-6">
      <div className="grid grid-cols-2 gap-4 xl:grid-cols-4">
        <MetricTile title="Consent Rate" icon={ChartPie} value={formatRate(report.data.consentRate)} />
        <MetricTile title="Total Consents" icon={Users} value={formatNumber(report.data.totalConsents)} />
        <MetricTile title="Mobile Consent Rate" icon={Smartphone} value={formatRate(report.data.mobileConsentRate)} />
        <MetricTile title="Desktop Consent Rate" icon={Monitor} value={formatRate(report.data.desktopConsentRate)} />
      </div>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">
          {formatCount(report.data.recommendations.length, 'recommendation')} for {website.name}
        </h2>
        <p className="text-sm text-muted-foreground">Last {days} days, most urgent first</p>
      </div>
      {report.data.recommendations.length === 0 ? (
        <Card>
          <EmptyState title="No recommendations available" description="Nothing to improve for this period. Check again as more visitors answer your banner." />
        </Card>
      ) : (
        <div className="space-y-4">
          {report.data.recommendations.map((recommendation) => (
            <RecommendationCard key={recommendation.id} recommendation={recommendation} metricValues={values} websiteId={website.id} />
          ))}
        </div>
      )}
    </section>
  );
}

/** Values of the metrics the report and the website's settings know. */
export function getMetricValues(report: RecommendationReport, settings: WebsiteSettings | undefined): Record<string, string> {
  const values: Record<string, string> = {
    consentRate: formatRate(report.consentRate),
    totalConsents: formatNumber(report.totalConsents),
    mobileConsentRate: formatRate(report.mobileConsentRate),
    desktopConsentRate: formatRate(report.desktopConsentRate),
  };
  if (settings) {
    values.retentionMonths = formatCount(settings.retentionMonths, 'month');
    values.ipAddressMode = settings.ipAddressMode === 'full' ? 'Full' : 'Truncated';
    values.privacyPolicyUrl = settings.privacyPolicyUrl ?? 'None';
  }
  return values;
}

