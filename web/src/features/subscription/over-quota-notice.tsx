// Past the plan's monthly consent limit. Nothing is refused: every consent is still recorded and
// counted (a consent must never be lost, and the statistics stay true); the owner is told, on the
// dashboard and on /subscription, and asked to upgrade.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CircleAlert } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { formatNumber } from '../../lib/format';
import { subscriptionUsageQueryOptions, type SubscriptionUsage } from './queries';

export function OverQuotaNotice({ usage }: { usage: SubscriptionUsage }) {
  if (!usage.consentQuotaExceeded) return null;
  return (
    <div
      role="alert"
      aria-label="Monthly consent limit exceeded"
      className="mb-6 flex flex-col gap-3 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="flex items-center gap-2 text-sm">
        <CircleAlert className="size-5 shrink-0" aria-hidden />
        {`This month your websites recorded ${formatNumber(usage.currentMonthConsents)} consents, more than your plan's ${formatNumber(usage.user.maxConsentsPerMonth)}. Every consent is still recorded and counted; upgrade to stay within your plan.`}
      </p>
      <Button asChild size="sm">
        <Link to="/pricing">Upgrade Plan</Link>
      </Button>
    </div>
  );
}

/** The notice for the signed-in owner, loading their usage (nothing for an admin-only session). */
export function OwnerOverQuotaNotice() {
  const usage = useQuery(subscriptionUsageQueryOptions());
  return usage.data ? <OverQuotaNotice usage={usage.data} /> : null;
}
