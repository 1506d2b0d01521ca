// The 'Consent by purpose' card of the Dashboard (every website) and of a website's Consent Data tab:
// the acceptance rate of each purpose as a bar, and how visitors chose (Accept All, Reject All,
// Customized, and GPC or a regional default when they happened) as one stacked bar with its legend.
// Plain bars rather than chart.js: every figure is text beside its bar, and nothing more is loaded.
import { useQuery } from '@tanstack/react-query';
import { LoadingState } from '../../components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { formatNumber, formatRate } from '../../lib/format';
import { getMethodShares, getPurposeRows, methodColors, type MethodShare, type PurposeRow } from './purpose-stats';
import { purposeStatsQueryOptions } from './queries';

export function PurposeStatsCard({ websiteId, description, className }: { websiteId?: string; description: string; className?: string }) {
  const stats = useQuery(purposeStatsQueryOptions({ websiteId }));

  return (
    <Card className={className} role="region" aria-labelledby="purpose-stats-title">
      <CardHeader>
        <CardTitle id="purpose-stats-title">Consent by purpose</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {stats.isPending ? (
          <LoadingState />
        ) : stats.isError || stats.data.choices === 0 ? (
          // Not 'No consent data yet': the Recent Consent Activity beside it already says that.
          <p className="py-8 text-center text-muted-foreground">No data available</p>
        ) : (
          <div className="grid gap-8 md:grid-cols-2">
            <PurposeRates rows={getPurposeRows(stats.data)} />
            <MethodSplit shares={getMethodShares(stats.data)} choices={stats.data.choices} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function PurposeRates({ rows }: { rows: PurposeRow[] }) {
  return (
    <section aria-labelledby="purpose-rates-title" className="min-w-0">
      <h3 id="purpose-rates-title" className="mb-3 text-sm font-medium">
        Acceptance rate
      </h3>
      <ul className="space-y-3">
        {rows.map((row) => (
          <li key={row.purpose} className="space-y-1">
            <div className="flex items-baseline justify-between gap-3 text-sm">
              <span className="font-medium">{row.label}</span>
              {row.rate === null ? (
                <span className="text-muted-foreground">Not asked</span>
              ) : (
                <span className="shrink-0 text-muted-foreground">
                  <span className="font-medium text-foreground">{formatRate(row.rate)}</span> · {formatNumber(row.granted)} of{' '}
                  {formatNumber(row.offered)}
                </span>
              )}
            </div>
            <div className="h-2 overflow-hidden rounded-full bg-secondary" aria-hidden>
              <div className="h-full rounded-full bg-primary" style={{ width: `${row.rate ?? 0}%` }} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function MethodSplit({ shares, choices }: { shares: MethodShare[]; choices: number }) {
  return (
    <section aria-labelledby="method-split-title" className="min-w-0">
      <h3 id="method-split-title" className="mb-3 text-sm font-medium">
        How visitors chose
      </h3>
      <div
        className="mb-4 flex h-3 overflow-hidden rounded-full bg-secondary"
        role="img"
        aria-label={`${formatNumber(choices)} choices: ${shares.map((share) => `${share.label} ${formatNumber(share.count)}`).join(', ')}`}
      >
        {shares.map((share) =>
          share.count > 0 ? <div key={share.method} className="h-full" style={{ width: `${share.share}%`, backgroundColor: methodColors[share.method] }} /> : null,
        )}
      </div>
      <ul className="space-y-2 text-sm">
        {shares.map((share) => (
          <li key={share.method} className="flex items-center justify-between gap-3">
            <span className="flex min-w-0 items-center gap-2">
              <span className="size-3 shrink-0 rounded-sm" style={{ backgroundColor: methodColors[share.method] }} aria-hidden />
              <span>{share.label}</span>
            </span>
            <span className="shrink-0 text-muted-foreground">
              <span className="font-medium text-foreground">{formatNumber(share.count)}</span> · {formatRate(share.share)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
