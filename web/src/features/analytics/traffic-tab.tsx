// A website's Traffic tab: its site analytics (visitors, page views, top pages, sources, devices)
// over a date range the owner picks, the last 30 days at first.
import { useState } from 'react';
import { Card, CardContent } from '../../components/ui/card';
import { defaultRangeDays, lastDaysRange, type DateRange } from './date-range';
import { DateRangePicker } from './date-range-picker';
import { SiteAnalyticsReport } from './site-analytics-report';

export function TrafficTab({ websiteId }: { websiteId: string }) {
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
