// The Website Analytics screen (/website-analytics): a card per website with its consent figures;
// opening one shows its detail with the tabs Consent Data, Traffic Analytics, Settings, Cookie scan
// and Webhooks (the last two loaded lazily: screens of their own, downloaded when opened). Which
// website and tab are open lives in the URL (`?website=…&tab=…`), handed in by the route.
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ChartColumn, Globe } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { NoWebsites } from '../websites/no-websites';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Progress } from '../../components/ui/progress';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { formatDate, formatNumber, formatRate } from '../../lib/format';
import { defaultRangeDays, lastDaysRange, type DateRange } from '../analytics/date-range';
import { DateRangePicker } from '../analytics/date-range-picker';
import { SiteAnalyticsReport } from '../analytics/site-analytics-report';
import { websiteStatsQueryOptions, type WebsiteStats } from '../stats/queries';
import { WebsiteSettingsForm } from '../website-settings/website-settings-form';
import { websitesQueryOptions, type Website } from '../websites/queries';
import { WebsiteStatusBadge } from '../websites/websites-page';
import { ConsentDataTab } from './consent-data-tab';
import type { WebsiteAnalyticsSearch, WebsiteAnalyticsTab } from './search';

const CookieScanTab = lazy(() => import('../scans/cookie-scan-tab'));
const WebhooksTab = lazy(() => import('../webhooks/webhooks-tab'));

export interface WebsiteAnalyticsPageProps {
  websiteId?: string;
  tab?: WebsiteAnalyticsTab;
  /** Opens a website's detail (or the cards, without a website). */
  onNavigate: (search: WebsiteAnalyticsSearch) => void;
}

export function WebsiteAnalyticsPage({ websiteId, tab = 'consent', onNavigate }: WebsiteAnalyticsPageProps) {
  const websites = useQuery(websitesQueryOptions());
  const selected = websiteId ? websites.data?.find((website) => website.id === websiteId) : undefined;

  if (websiteId && selected) {
    return <WebsiteDetail website={selected} tab={tab} onNavigate={onNavigate} />;
  }

  return (
    <>
      <PageHeader title="Website Analytics" description="Consent data, traffic and settings of each website." />
      {websites.isPending ? (
        <LoadingState />
      ) : websites.isError ? (
        <ErrorState title="Websites could not be loaded." error={websites.error} />
      ) : websiteId ? (
        <Card>
          <EmptyState title="No websites found" description="This website does not exist or was removed.">
            <Button variant="outline" onClick={() => onNavigate({})}>
              <ArrowLeft aria-hidden />
              All websites
            </Button>
          </EmptyState>
        </Card>
      ) : websites.data.length === 0 ? (
        <Card>
          <NoWebsites title="No websites found" description="Add a website to see its consent data and traffic here." />
        </Card>
      ) : (
        <WebsiteCards websites={websites.data} onOpen={(id) => onNavigate({ website: id })} />
      )}
    </>
  );
}

function WebsiteCards({ websites, onOpen }: { websites: Website[]; onOpen: (websiteId: string) => void }) {
  const stats = useQuery(websiteStatsQueryOptions());
  const statsById = new Map((stats.data ?? []).map((item) => [item.website.id, item]));
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {websites.map((website) => (
        <WebsiteCard key={website.id} website={website} stats={statsById.get(website.id)} statsLoading={stats.isPending} onOpen={() => onOpen(website.id)} />
      ))}
    </div>
  );
}

function WebsiteCard({ website, stats, statsLoading, onOpen }: { website: Website; stats: WebsiteStats | undefined; statsLoading: boolean; onOpen: () => void }) {
  const titleId = `website-analytics-${website.id}`;
  const total = stats?.totalConsents ?? 0;
  const rate = stats?.consentRate ?? 0;
  return (
    <Card role="article" aria-labelledby={titleId} className="flex min-w-0 flex-col">
      <CardHeader>
        <div className="flex items-start justify-between gap-3">
          <div className="flex min-w-0 items-start gap-2">
            <Globe className="size-5 shrink-0 text-primary" aria-hidden />
            <CardTitle id={titleId} className="break-words">
              {website.name}
            </CardTitle>
          </div>
          <WebsiteStatusBadge isActive={website.isActive} />
        </div>
        {/* Below the title row, so a long domain gets the card's whole width. */}
        <CardDescription className="wrap-anywhere">{website.domain}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <dl className="grid grid-cols-2 gap-3">
          <div>
            <dt className="text-xs text-muted-foreground">Consents</dt>
            <dd className="text-2xl font-bold">{statsLoading ? '…' : formatNumber(total)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Consent rate</dt>
            <dd className="text-2xl font-bold">{statsLoading ? '…' : formatRate(rate)}</dd>
          </div>
        </dl>
        <Progress value={rate} aria-label={`Consent rate of ${website.name}: ${formatRate(rate)}`} className="h-2" />
        <p className="text-xs text-muted-foreground">Added {formatDate(website.createdAt)}</p>
        <Button variant="outline" className="mt-auto self-start" onClick={onOpen} aria-label={`View analytics of ${website.name}`}>
          <ChartColumn aria-hidden />
          View analytics
        </Button>
      </CardContent>
    </Card>
  );
}

function WebsiteDetail({ website, tab, onNavigate }: { website: Website; tab: WebsiteAnalyticsTab; onNavigate: (search: WebsiteAnalyticsSearch) => void }) {
  return (
    <>
      <Button variant="ghost" size="sm" className="-ml-3 mb-2" onClick={() => onNavigate({})}>
        <ArrowLeft aria-hidden />
        All websites
      </Button>
      <PageHeader
        title={website.name}
        description={website.domain}
        action={
          <div className="self-start sm:self-center">
            <WebsiteStatusBadge isActive={website.isActive} />
          </div>
        }
      />
      <Tabs value={tab} onValueChange={(value) => onNavigate({ website: website.id, tab: value as WebsiteAnalyticsTab })}>
        <TabsList className="h-auto max-w-full flex-wrap justify-start">
          <TabsTrigger value="consent">Consent Data</TabsTrigger>
          <TabsTrigger value="traffic">Traffic Analytics</TabsTrigger>
          <TabsTrigger value="settings">Settings</TabsTrigger>
          <TabsTrigger value="scan">Cookie scan</TabsTrigger>
          <TabsTrigger value="webhooks">Webhooks</TabsTrigger>
        </TabsList>
        <TabsContent value="consent">
          <ConsentDataTab websiteId={website.id} />
        </TabsContent>
        <TabsContent value="traffic">
          <TrafficTab websiteId={website.id} />
        </TabsContent>
        <TabsContent value="settings">
          <Card className="max-w-2xl">
            <CardHeader>
              <CardTitle>Website settings</CardTitle>
              <CardDescription>
                Data retention, IP address storage, the banner, the consent purposes it asks for, its languages, the rules by region and Lead identification on{' '}
                {website.name}.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <WebsiteSettingsForm websiteId={website.id} fields="all" />
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="scan">
          <Suspense fallback={<LoadingState />}>
            <CookieScanTab websiteId={website.id} />
          </Suspense>
        </TabsContent>
        <TabsContent value="webhooks">
          <Suspense fallback={<LoadingState />}>
            <WebhooksTab websiteId={website.id} />
          </Suspense>
        </TabsContent>
      </Tabs>
    </>
  );
}

function TrafficTab({ websiteId }: { websiteId: string }) {
  const [range, setRange] = useState<DateRange>(() => lastDaysRange(defaultRangeDays));
  return (
    <div className="space-y-6">
      <Card>
        <CardContent className="pt-6">
          <DateRangePicker value={range} onChange={setRange} />
        </CardContent>
      </Card>
      <SiteAnalyticsReport websiteId={websiteId} range={range} />
    </div>
  );
}
