// The top bar's notification button: the latest consent choices, and how many arrived in the last
// 24 hours (spec: recent activity counts the last 24 hours), read from the latest 50 records (spec
// section 9); when all 50 are that recent the count reads '50+'. Above them, the owner's alerts: a
// website at 80 % of its monthly resolution cap or more (docs/identification.md, "Limits"). Live
// updates refresh them with every other ['consents'] and ['leads'] query.
import { useQuery } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { Button } from '../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { formatDateTime } from '../../lib/format';
import { getConsentChoiceLabel } from '../consents/consent-choice';
import { recentConsentsQueryOptions, type ConsentRecord } from '../consents/queries';
import { leadsSummaryQueryOptions, type ResolutionCapAlert } from '../leads/queries';

const recentActivityWindowMs = 24 * 60 * 60 * 1000;
const shownNotifications = 5;
/** The recent-consent reading of spec section 9. */
export const recentActivityLimit = 50;

export function countRecentActivity(records: ConsentRecord[], now: number): number {
  return records.filter((record) => now - new Date(record.timestamp).getTime() <= recentActivityWindowMs).length;
}

/** '12', or '50+' when every record read is within the window (there may be more). */
export function formatRecentCount(count: number, limit = recentActivityLimit): string {
  return count >= limit ? `${limit}+` : String(count);
}

/** One alert's line: the website, how far into its cap, and what that means. */
export function describeCapAlert(alert: ResolutionCapAlert): string {
  const used = `${alert.resolutions.toLocaleString('en-US')} of ${alert.cap.toLocaleString('en-US')}`;
  if (alert.level === 'reached') return `${alert.websiteName} reached its monthly resolution cap (${used}): new visitors are not identified until next month`;
  return `${alert.websiteName} is at ${Math.floor((alert.resolutions / alert.cap) * 100)} % of its monthly resolution cap (${used})`;
}

export function NotificationsMenu({ onOpenDashboard }: { onOpenDashboard: () => void }) {
  const { data, isError, isPending } = useQuery(recentConsentsQueryOptions(recentActivityLimit));
  const records = data ?? [];
  const recentCount = formatRecentCount(countRecentActivity(records, Date.now()));
  const capAlerts = useQuery(leadsSummaryQueryOptions()).data?.capAlerts ?? [];
  const alertLabel = capAlerts.length > 0 ? `, ${capAlerts.length === 1 ? '1 resolution cap alert' : `${capAlerts.length} resolution cap alerts`}` : '';

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={(recentCount !== '0' ? `Notifications: ${recentCount} in the last 24 hours` : 'Notifications') + alertLabel}
        >
          <Bell aria-hidden />
          {capAlerts.length > 0 ? <span aria-hidden className="absolute top-0.5 left-0.5 size-2 rounded-full bg-yellow-500" /> : null}
          {recentCount !== '0' ? (
            <span className="absolute -top-0.5 -right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-none font-semibold text-destructive-foreground">
              {recentCount}
            </span>
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-80">
        {capAlerts.length > 0 ? (
          <>
            <DropdownMenuLabel>Resolution caps</DropdownMenuLabel>
            {capAlerts.map((alert) => (
              <p key={alert.websiteId} role="alert" className={`px-2 py-1.5 text-sm ${alert.level === 'reached' ? 'text-destructive' : 'text-yellow-800'}`}>
                {describeCapAlert(alert)}
              </p>
            ))}
            <DropdownMenuSeparator />
          </>
        ) : null}
        <DropdownMenuLabel>Recent activity</DropdownMenuLabel>
        <p className="px-2 pb-2 text-xs text-muted-foreground">
          {recentCount === '1' ? '1 consent' : `${recentCount} consents`} in the last 24 hours
        </p>
        <DropdownMenuSeparator />
        {isPending ? (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">Loading...</p>
        ) : isError ? (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">No data available</p>
        ) : records.length === 0 ? (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">No consent data yet</p>
        ) : (
          records.slice(0, shownNotifications).map((record) => (
            <DropdownMenuItem key={record.id} onSelect={onOpenDashboard} className="flex-col items-start gap-0.5">
              <span className="font-medium">{getConsentChoiceLabel(record.consentChoice)}</span>
              <span className="text-xs text-muted-foreground">{formatDateTime(record.timestamp)}</span>
            </DropdownMenuItem>
          ))
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onOpenDashboard}>View dashboard</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
