// A website's Overview tab: what needs doing next (each item links to the tab where it is done), then
// its key consent figures and recommendations over the last 7, 30 or 90 days (the Recommendations report).
// The next steps follow from data the other tabs read too: consent totals, scans, settings.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowRight, CircleCheck, CircleAlert } from 'lucide-react';
import { useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { defaultRecommendationPeriod, recommendationPeriods, type RecommendationPeriod } from '../recommendations/queries';
import { WebsiteReport } from '../recommendations/recommendations-page';
import { scansQueryOptions } from '../scans/queries';
import { websiteStatsQueryOptions } from '../stats/queries';
import { websiteSettingsQueryOptions } from '../website-settings/queries';
import type { Website } from './queries';
import { WebsiteTabHeading } from './website-page';
import { getWebsiteTabPath, type WebsiteTab } from './website-tabs';

export interface NextStep {
  id: string;
  title: string;
  description: string;
  tab: WebsiteTab;
  action: string;
}

interface NextStepInputs {
  website: Pick<Website, 'isActive'>;
  /** Undefined while loading or when it could not be read: no step is claimed from missing data. */
  totalConsents: number | undefined;
  scanCount: number | undefined;
  privacyPolicyUrl: string | null | undefined;
}

/** The things an owner should do next on this website, most basic first. */
export function getNextSteps({ website, totalConsents, scanCount, privacyPolicyUrl }: NextStepInputs): NextStep[] {
  const steps: NextStep[] = [];
  if (totalConsents === 0) {
    steps.push({
      id: 'install',
      title: 'No consent recorded yet',
      description: website.isActive
        ? 'Add the banner’s code to your website, then verify that it is live.'
        : 'This website is inactive. Add the banner’s code to your website and verify it is live.',
      tab: 'installation',
      action: 'Install the banner',
    });
  }
  if (scanCount === 0) {
    steps.push({
      id: 'scan',
      title: 'Not scanned yet',
      description: 'A cookie scan lists the cookies and trackers your website sets and whether they wait for consent.',
      tab: 'scan',
      action: 'Run a cookie scan',
    });
  }
  if (privacyPolicyUrl === null) {
    steps.push({
      id: 'privacy-policy',
      title: 'No privacy policy linked',
      description: 'Visitors should reach your privacy policy from the banner.',
      tab: 'banner',
      action: 'Link your privacy policy',
    });
  }
  return steps;
}

export function WebsiteOverviewTab({ website }: { website: Website }) {
  const stats = useQuery(websiteStatsQueryOptions());
  const scans = useQuery(scansQueryOptions(website.id));
  const settings = useQuery(websiteSettingsQueryOptions(website.id));
  const websiteStats = stats.data?.find((item) => item.website.id === website.id);
  const steps = getNextSteps({
    website,
    totalConsents: stats.data ? (websiteStats?.totalConsents ?? 0) : undefined,
    scanCount: scans.data?.length,
    privacyPolicyUrl: settings.data ? settings.data.privacyPolicyUrl : undefined,
  });
  const ready = stats.isSuccess && scans.isSuccess && settings.isSuccess;
  const [days, setDays] = useState<RecommendationPeriod>(defaultRecommendationPeriod);

  return (
    <div className="space-y-6">
      <WebsiteTabHeading
        title="Overview"
        description={`How ${website.name} is doing and what to do next.`}
        action={
          <div className="w-full space-y-1 sm:w-48">
            <Label htmlFor="overview-period" className="text-xs text-muted-foreground">
              Period
            </Label>
            <Select value={String(days)} onValueChange={(value) => setDays(Number(value) as RecommendationPeriod)}>
              <SelectTrigger id="overview-period">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {recommendationPeriods.map((period) => (
                  <SelectItem key={period} value={String(period)}>
                    Last {period} days
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        }
      />
      <Card role="region" aria-labelledby="next-steps-title">
        <CardHeader>
          <CardTitle id="next-steps-title" className="text-base">
            Next steps
          </CardTitle>
          {ready && steps.length === 0 ? (
            <CardDescription className="flex items-center gap-2">
              <CircleCheck className="size-4 text-green-600" aria-hidden />
              Nothing to set up: the banner records consent, the website is scanned and your privacy policy is linked.
            </CardDescription>
          ) : null}
        </CardHeader>
        <CardContent>
          {steps.length > 0 ? (
            <ul className="divide-y">
              {steps.map((step) => (
                <li key={step.id} className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
                  <div className="flex min-w-0 items-start gap-2">
                    <CircleAlert className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
                    <div>
                      <p className="font-medium">{step.title}</p>
                      <p className="text-sm text-muted-foreground">{step.description}</p>
                    </div>
                  </div>
                  <Link
                    to={getWebsiteTabPath(step.tab)}
                    params={{ websiteId: website.id }}
                    className="inline-flex shrink-0 items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
                  >
                    {step.action}
                    <ArrowRight className="size-4" aria-hidden />
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <nav aria-label="Website details" className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
              <Link to="/websites/$websiteId/consent" params={{ websiteId: website.id }} className="font-medium text-primary underline-offset-4 hover:underline">
                See consent records
              </Link>
              <Link to="/websites/$websiteId/traffic" params={{ websiteId: website.id }} className="font-medium text-primary underline-offset-4 hover:underline">
                See traffic
              </Link>
            </nav>
          )}
        </CardContent>
      </Card>
      <WebsiteReport website={website} days={days} />
    </div>
  );
}
