// The Settings screen (/settings, /user/settings, /admin/settings): owners brand their banner and see
// their plan with a way to its usage; admins brand the installation; both see who is signed in and
// set each website's retention period and IP address storage (Privacy).
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PageHeader } from '../../components/page-header';
import { LoadingState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { formatNumber } from '../../lib/format';
import { useSession } from '../auth/use-session';
import { subscriptionUsageQueryOptions } from '../subscription/queries';
import { BrandingCard } from './branding-card';
import { PrivacyCard } from './privacy-card';

export function SettingsPage() {
  const session = useSession();
  return (
    <>
      <PageHeader title="Settings" description="Your account and how your product looks." />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        {session.user ? <BrandingCard scope="owner" /> : null}
        {session.admin ? <BrandingCard scope="installation" /> : null}
        <Card>
          <CardHeader>
            <CardTitle>Account</CardTitle>
            <CardDescription>Who is signed in.</CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              {session.admin ? (
                <>
                  <dt className="text-muted-foreground">Admin username</dt>
                  <dd className="font-medium">{session.admin.username}</dd>
                </>
              ) : null}
              {session.user ? (
                <>
                  <dt className="text-muted-foreground">Name</dt>
                  <dd className="font-medium">
                    {[session.user.firstName, session.user.lastName].filter(Boolean).join(' ') || '—'}
                  </dd>
                  <dt className="text-muted-foreground">Email</dt>
                  <dd className="font-medium">{session.user.email ?? '—'}</dd>
                </>
              ) : null}
            </dl>
            {session.user ? (
              <Button asChild size="sm" variant="outline" className="mt-4">
                <Link to="/account">Change your name or password</Link>
              </Button>
            ) : null}
          </CardContent>
        </Card>
        <PrivacyCard />
        {session.user ? <BillingCard /> : null}
      </div>
    </>
  );
}

function BillingCard() {
  const usage = useQuery(subscriptionUsageQueryOptions());
  return (
    <Card>
      <CardHeader>
        <CardTitle>Billing</CardTitle>
        <CardDescription>Your plan and its limits.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {usage.isPending ? (
          <LoadingState className="text-sm text-muted-foreground" />
        ) : usage.isError ? (
          <p className="text-sm text-muted-foreground">Unable to load subscription data</p>
        ) : (
          <p className="text-sm">
            <span className="font-medium">{usage.data.subscriptionPlan?.displayName ?? 'Current plan'}</span>: up to{' '}
            {formatNumber(usage.data.user.maxWebsites)} websites and {formatNumber(usage.data.user.maxConsentsPerMonth)}{' '}
            consents per month.
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link to="/subscription">View usage</Link>
          </Button>
          <Button asChild>
            <Link to="/pricing">Upgrade Plan</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
