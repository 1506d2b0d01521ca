// The dashboard's "Identified visitors" card: how many visitors were identified, and the owner's own
// identification rate (identified ÷ visitors who allowed identification, from the counts the api
// measured) beside the landing page's "up to 40%" claim, so the claim is never mistaken for a result.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { UserCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Progress } from '../../components/ui/progress';
import { formatNumber, formatRate } from '../../lib/format';
import { lastDaysRange } from '../analytics/date-range';
import { describeIdentificationCounts, describeIdentificationRate, describeWithdrawnSince, getIdentificationRate } from './labels';
import { identifiedVisitorsDays, identifiedVisitorsQueryOptions } from './queries';

export function IdentifiedVisitorsCard({ className }: { className?: string }) {
  // Fixed when the dashboard opens, so the query key does not change under it.
  const [range] = useState(() => lastDaysRange(identifiedVisitorsDays));
  const summary = useQuery(identifiedVisitorsQueryOptions(range));
  const rate = summary.data ? getIdentificationRate(summary.data) : null;
  const withdrawnSince = summary.data ? describeWithdrawnSince(summary.data) : null;

  return (
    <Card className={className} role="region" aria-labelledby="identified-visitors-title">
      <CardHeader className="flex-row items-start justify-between gap-2">
        <div className="space-y-1.5">
          <CardTitle id="identified-visitors-title">Identified visitors</CardTitle>
          <CardDescription>
            Visitors who allowed identification and told you who they are, across your websites, last {identifiedVisitorsDays} days
          </CardDescription>
        </div>
        <UserCheck className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      </CardHeader>
      <CardContent className="space-y-4">
        {summary.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading...
          </p>
        ) : summary.isError ? (
          <p className="text-muted-foreground">No data available</p>
        ) : (
          <div className="grid items-center gap-6 lg:grid-cols-2">
            <dl className="grid grid-cols-3 items-end gap-4">
              <div>
                <dt className="text-sm text-muted-foreground">Identified</dt>
                <dd className="text-3xl font-bold">{formatNumber(summary.data.identified)}</dd>
              </div>
              <div>
                <dt className="text-sm text-muted-foreground">Identification rate</dt>
                <dd className="text-3xl font-bold">{rate === null ? '—' : formatRate(rate)}</dd>
              </div>
              <div>
                <dt className="text-sm text-muted-foreground">Resolutions this month</dt>
                <dd className="text-3xl font-bold">{formatNumber(summary.data.resolutionsThisMonth)}</dd>
              </div>
            </dl>
            <div className="space-y-3">
              {rate !== null ? <Progress value={rate} className="h-2" aria-label={`Identification rate: ${formatRate(rate)}`} /> : null}
              <p className="text-sm font-medium">{describeIdentificationRate(summary.data)}</p>
              <p className="text-xs text-muted-foreground">
                {describeIdentificationCounts(summary.data)} were identified.{withdrawnSince ? ` ${withdrawnSince}` : ''}
              </p>
              <Button asChild variant="outline" size="sm">
                <Link to="/leads">View leads</Link>
              </Button>
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
