// The Subscription screen (/subscription): the owner's plan and how much of its website and monthly
// consent limits are used, with an upgrade alert from 75% on either, and this month's resolutions
// (visitors identified for the first time this month) with what they cost at the plan's rate.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Check, TriangleExclamationPoint } from 'lucide-react';
import { PageHeader } from '../../components/page-header';
import { LoadingState } from '../../components/query-state';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { formatNumber, formatPrice } from '../../lib/format';
import { formatPerResolutionPrice } from '../pricing/pricing';
import { useSession } from '../auth/use-session';
import { subscriptionPlansQueryOptions, subscriptionUsageQueryOptions, type SubscriptionUsage } from './queries';
import { OverQuotaNotice } from './over-quota-notice';
import { UsageBar } from './usage-bar';
import { getResolutionCostCents, getUsagePercent, needsUsageAlert } from './usage';

export function SubscriptionPage() {
  const usage = useQuery(subscriptionUsageQueryOptions());
  const session = useSession();
  const dashboard = session.admin ? '/admin' : '/dashboard';

  if (usage.isPending) return <LoadingState />;
  if (usage.isError) {
    return (
      <Card role="alert" className="mx-auto max-w-lg">
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
          <p className="font-medium">Unable to load subscription data</p>
          <Button asChild variant="outline">
            <Link to={dashboard}>Back to Dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    );
  }

  const { user, subscriptionPlan, currentWebsites, currentMonthConsents } = usage.data;
  const websitesPercent = getUsagePercent(currentWebsites, user.maxWebsites);
  const consentsPercent = getUsagePercent(currentMonthConsents, user.maxConsentsPerMonth);
  const active = user.subscriptionStatus === 'active';

  return (
    <>
      <PageHeader title="Subscription" description="Your plan and this month's usage." />
      <OverQuotaNotice usage={usage.data} />
      {!usage.data.consentQuotaExceeded && needsUsageAlert(websitesPercent, consentsPercent) ? (
        <div role="alert" className="mb-6 flex flex-col gap-3 rounded-lg border border-yellow-300 bg-yellow-50 p-4 text-yellow-900 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-2 text-sm">
            <TriangleExclamationPoint className="size-5 shrink-0" aria-hidden />
            You are close to your plan&apos;s limits. Upgrade to keep adding websites and recording consents.
          </p>
          <Button asChild size="sm">
            <Link to="/pricing">Upgrade Plan</Link>
          </Button>
        </div>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <div className="flex items-center justify-between gap-2">
              <CardTitle>{subscriptionPlan?.displayName ?? 'Current plan'}</CardTitle>
              <Badge variant={active ? 'default' : 'secondary'}>{active ? 'Active' : 'Inactive'}</Badge>
            </div>
            {subscriptionPlan ? (
              <CardDescription>
                <span className="text-2xl font-bold text-foreground">{formatPrice(subscriptionPlan.price)}</span>/month
              </CardDescription>
            ) : null}
          </CardHeader>
          <CardContent className="space-y-4">
            {subscriptionPlan && subscriptionPlan.features.length > 0 ? (
              <ul className="space-y-2 text-sm">
                {subscriptionPlan.features.map((feature) => (
                  <li key={feature} className="flex gap-2">
                    <Check className="mt-0.5 size-4 shrink-0 text-green-600" aria-hidden />
                    {feature}
                  </li>
                ))}
              </ul>
            ) : null}
            <Button asChild variant="outline">
              <Link to="/pricing">Compare plans</Link>
            </Button>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Usage</CardTitle>
            <CardDescription>Limits of your current plan</CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            <UsageBar label="Websites" current={currentWebsites} max={user.maxWebsites} />
            <UsageBar label="Consents this month" current={currentMonthConsents} max={user.maxConsentsPerMonth} />
            <ResolutionsLine usage={usage.data} tier={session.user?.subscriptionTier ?? null} />
          </CardContent>
        </Card>
      </div>
    </>
  );
}

/**
 * Resolutions have no limit, so a line rather than a bar: the count, and its cost when the plan bills
 * resolutions. The rate is the usage's plan's, else the published plan of the owner's tier.
 */
function ResolutionsLine({ usage, tier }: { usage: SubscriptionUsage; tier: string | null }) {
  const plans = useQuery({ ...subscriptionPlansQueryOptions(), enabled: usage.subscriptionPlan?.perResolutionCents === undefined });
  const rate = usage.subscriptionPlan?.perResolutionCents ?? plans.data?.find((plan) => plan.name === tier)?.perResolutionCents ?? null;
  const resolutions = usage.resolutionsThisMonth ?? 0;
  const cost = getResolutionCostCents(resolutions, rate);
  return (
    <div className="space-y-1 border-t pt-4" role="group" aria-labelledby="resolutions-label">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span id="resolutions-label" className="font-medium">
          Resolutions this month
        </span>
        <span className="text-muted-foreground">{formatNumber(resolutions)}</span>
      </div>
      <p className="text-xs text-muted-foreground">
        {cost !== null && rate !== null
          ? `${formatPerResolutionPrice(cost)} at ${formatPerResolutionPrice(rate)} per resolution. `
          : 'Your plan bills no resolutions. '}
        A resolution is a visitor identified for the first time in a month.
      </p>
    </div>
  );
}
