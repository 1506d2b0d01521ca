// The Analytics & Consent screen (/analytics): pick a website and a date range (default the last 30
// days) to see its site analytics. Nothing is asked of the api until a website is chosen (spec
// section 4: analytics views are empty until then).
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ChartLine } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { NoWebsites } from '../websites/no-websites';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { Card, CardContent } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { formatNumber, formatRate } from '../../lib/format';
import { websiteStatsQueryOptions } from '../stats/queries';
import { websitesQueryOptions, type Website } from '../websites/queries';
import { WebsiteSelect } from '../websites/website-select';
import { defaultRangeDays, formatRange, lastDaysRange, type DateRange } from './date-range';
import { DateRangePicker } from './date-range-picker';
import { SiteAnalyticsReport } from './site-analytics-report';

export function AnalyticsPage() {
  const websites = useQuery(websitesQueryOptions());
  const [websiteId, setWebsiteId] = useState<string | null>(null);
  const [range, setRange] = useState<DateRange>(() => lastDaysRange(defaultRangeDays));
  const selected = websites.data?.find((website) => website.id === websiteId) ?? null;

  return (
    <>
      <PageHeader title="Analytics & Consent" description="Visitors, pages and engagement of each of your websites." />
      <Card className="mb-6">
        <CardContent className="grid gap-4 pt-6 lg:grid-cols-[minmax(0,24rem)_1fr] lg:items-start">
          <div className="space-y-2">
            <Label htmlFor="analytics-website">Website</Label>
            <WebsiteSelect id="analytics-website" websites={websites.data ?? []} value={websiteId} onValueChange={setWebsiteId} />
          </div>
          <DateRangePicker value={range} onChange={setRange} />
        </CardContent>
      </Card>

      {websites.isPending ? (
        <LoadingState />
      ) : websites.isError ? (
        <ErrorState title="Websites could not be loaded." error={websites.error} />
      ) : websites.data.length === 0 ? (
        <Card>
          <NoWebsites description="Add a website and install its banner; its analytics appear here." />
        </Card>
      ) : !selected ? (
        <Card>
          <EmptyState title="Select a website" description="Choose a website above to see its visitors, pages, traffic sources and engagement.">
            <ChartLine className="size-8 text-muted-foreground" aria-hidden />
          </EmptyState>
        </Card>
      ) : (
        <section aria-label={`Analytics of ${selected.name}`} className="space-y-4">
          <SelectionSummary website={selected} range={range} />
          <SiteAnalyticsReport websiteId={selected.id} range={range} />
        </section>
      )}
    </>
  );
}

/** Which website and days the figures are for, with its consent figures beside them. */
function SelectionSummary({ website, range }: { website: Website; range: DateRange }) {
  const stats = useQuery(websiteStatsQueryOptions());
  const consent = stats.data?.find((item) => item.website.id === website.id);
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:flex-wrap sm:items-baseline sm:justify-between">
      <h2 className="text-lg font-semibold wrap-anywhere">
        {website.name} <span className="text-sm font-normal text-muted-foreground">{website.domain}</span>
      </h2>
      <p className="text-sm text-muted-foreground">
        {formatRange(range)}
        {consent ? (
          <>
            {' · '}
            <Link to="/websites/$websiteId/consent" params={{ websiteId: website.id }} className="text-primary underline-offset-4 hover:underline">
              {formatNumber(consent.totalConsents)} consents, {formatRate(consent.consentRate)} accepted
            </Link>
          </>
        ) : null}
      </p>
    </div>
  );
}
