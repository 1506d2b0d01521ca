// The top bar's notification button: the latest consent choices, and how many arrived in the last
// 24 hours (spec: recent activity counts the last 24 hours), read from the latest 50 records (spec
// section 9); when all 50 are that recent the count reads '50+'. The badge counts what this viewer
// has not seen: the records newer than the newest one shown when they last opened the menu (kept in
// this browser, per user or admin), or those of the last 24 hours before the first opening. Above them, the owner's alerts: a
// website at 80 % of its monthly resolution cap or more (docs/identification.md, "Limits"). Live
// updates refresh them with every other ['consents'] and ['leads'] query.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
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

/**
 * The records this viewer has not seen: newer than `seenUpTo` (the newest record shown when they last
 * opened the menu), or before any opening, those of the last 24 hours.
 */
export function countUnseen(records: ConsentRecord[], seenUpTo: string | null, now: number): number {
  if (seenUpTo === null) return countRecentActivity(records, now);
  const seen = new Date(seenUpTo).getTime();
  return records.filter((record) => new Date(record.timestamp).getTime() > seen).length;
}

const seenStorageKey = (viewer: string) => `consentry:notifications-seen:${viewer}`;

/** What this viewer last saw, from this browser's storage (null when never, or storage is off). */
export function readSeenUpTo(viewer: string): string | null {
  try {
    const value = window.localStorage.getItem(seenStorageKey(viewer));
    return value !== null && !Number.isNaN(new Date(value).getTime()) ? value : null;
  } catch {
    return null;
  }
}

function writeSeenUpTo(viewer: string, timestamp: string): void {
  try {
    window.localStorage.setItem(seenStorageKey(viewer), timestamp);
  } catch {
    // Storage off (private mode, a policy): the badge then counts the last 24 hours, as before.
  }
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

/** `viewer` names whose "seen" this is: the owner's or the admin's id, as the session gives it. */
export function NotificationsMenu({ viewer, onOpenDashboard }: { viewer: string; onOpenDashboard: () => void }) {
  const { data, isError, isPending } = useQuery(recentConsentsQueryOptions(recentActivityLimit));
  const records = data ?? [];
  const now = Date.now();
  const recentCount = formatRecentCount(countRecentActivity(records, now));
  const [seenUpTo, setSeenUpTo] = useState(() => readSeenUpTo(viewer));
  const unseenCount = formatRecentCount(countUnseen(records, seenUpTo, now));
  const markSeen = (open: boolean) => {
    if (!open || records.length === 0) return;
    const newest = records.reduce((latest, record) => (new Date(record.timestamp) > new Date(latest) ? record.timestamp : latest), records[0]!.timestamp);
    writeSeenUpTo(viewer, newest);
    setSeenUpTo(newest);
  };
  const capAlerts = useQuery(leadsSummaryQueryOptions()).data?.capAlerts ?? [];
  const alertLabel = capAlerts.length > 0 ? `, ${capAlerts.length === 1 ? '1 resolution cap alert' : `${capAlerts.length} resolution cap alerts`}` : '';

  return (
    <DropdownMenu onOpenChange={markSeen}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={(unseenCount !== '0' ? `Notifications: ${unseenCount} new` : 'Notifications') + alertLabel}
        >
          <Bell aria-hidden />
          {capAlerts.length > 0 ? <span aria-hidden className="absolute top-0.5 left-0.5 size-2 rounded-full bg-yellow-500" /> : null}
          {unseenCount !== '0' ? (
            <span data-testid="unseen-count" className="absolute -top-0.5 -right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-none font-semibold text-destructive-foreground">
              {unseenCount}
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
