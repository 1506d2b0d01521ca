// A lead's page (/leads/$websiteId/$visitorId): who they are (what they entered, their company's
// network, what enrichment added or that it is still pending), their activity on the website, the
// consent their identification rests on with its receipt, and the timeline of visits, choices,
// identification and enrichment, newest first. Refreshed by the same live updates as the list.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  ArrowLeft,
  Building2,
  CircleCheck,
  CircleX,
  Eye,
  FileCheck,
  Hourglass,
  ExternalLink,
  Network,
  ShieldCheck,
  Sparkles,
  UserCheck,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { getErrorStatus } from '../../lib/api';
import { formatDateTime, formatNumber } from '../../lib/format';
import {
  describeTimelineEntry,
  enrichmentFailureLabels,
  formatEngagement,
  formatLeadSource,
  getLeadDisplayName,
  getSafeExternalUrl,
  sortTimelineNewestFirst,
} from './labels';
import { ConsentStatusBadge, EnrichmentStatusBadge } from './badges';
import { leadQueryOptions, type LeadDetail, type TimelineEntry, type TimelineKind } from './queries';

export function LeadPage({ websiteId, visitorId }: { websiteId: string; visitorId: string }) {
  const lead = useQuery(leadQueryOptions(websiteId, visitorId));

  return (
    <>
      <Button asChild variant="ghost" size="sm" className="-ml-3 mb-2">
        <Link to="/leads">
          <ArrowLeft aria-hidden />
          All leads
        </Link>
      </Button>
      {lead.isPending ? (
        <LoadingState />
      ) : lead.isError ? (
        getErrorStatus(lead.error) === 404 ? (
          <Card>
            <EmptyState title="Lead not found" description="This lead does not exist, was erased, or belongs to a website you cannot see." />
          </Card>
        ) : (
          <ErrorState title="The lead could not be loaded." error={lead.error} />
        )
      ) : (
        <LeadDetails lead={lead.data.lead} timeline={lead.data.timeline} enrichmentOn={lead.data.enrichmentOn} />
      )}
    </>
  );
}

function LeadDetails({ lead, timeline, enrichmentOn }: { lead: LeadDetail; timeline: TimelineEntry[]; enrichmentOn: boolean }) {
  const linkedin = getSafeExternalUrl(lead.enrichment?.linkedinUrl);
  const subtitle = [lead.name ? lead.email : null, lead.title, lead.company].filter(Boolean).join(' · ');
  const failure = lead.enrichmentStatus === 'failed' ? timeline.filter((entry) => entry.kind === 'enrichment_failed').at(-1) : undefined;
  return (
    <>
      <PageHeader
        title={getLeadDisplayName(lead)}
        description={subtitle || `Identified on ${lead.websiteName}`}
        action={
          <div className="flex flex-wrap items-center gap-2 self-start sm:self-center">
            <ConsentStatusBadge status={lead.consentStatus} />
            {linkedin ? (
              <Button asChild variant="outline" size="sm">
                <a href={linkedin} target="_blank" rel="noopener noreferrer">
                  <ExternalLink aria-hidden />
                  LinkedIn profile
                </a>
              </Button>
            ) : null}
          </div>
        }
      />
      {lead.consentStatus === 'withdrawn' ? (
        <p role="note" className="mb-6 rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm">
          This visitor withdrew identification on {formatDateTime(lead.consentChangedAt)}. Nothing new is recorded or enriched, and the lead is
          left out of exports, audience files and webhooks from then on; the history below stays as the proof of what happened when.
        </p>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2" role="region" aria-labelledby="lead-identity-title">
          <CardHeader>
            <CardTitle id="lead-identity-title">Identity and company</CardTitle>
            <CardDescription>What the visitor entered, their network and what enrichment added</CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            <Facts
              items={[
                ['Email', lead.email],
                ['Name', lead.name],
                ['Company', lead.company],
                ['Title', lead.title],
                ['Website', lead.websiteName],
                ['Identified by', formatLeadSource(lead.source)],
                ['Identified', formatDateTime(lead.identifiedAt)],
              ]}
            />
            <section aria-labelledby="lead-network-title" className="space-y-2 border-t pt-4">
              <h4 id="lead-network-title" className="flex items-center gap-2 text-sm font-semibold">
                <Network className="size-4 text-muted-foreground" aria-hidden />
                Network
              </h4>
              {lead.network ? (
                <p className="text-sm">
                  {lead.network.organisation} <span className="text-muted-foreground">(AS{lead.network.asn})</span>
                </p>
              ) : (
                <p className="text-sm text-muted-foreground">No company network matched (access providers, hosting, mobile carriers and VPNs never count).</p>
              )}
            </section>
            <section aria-labelledby="lead-enrichment-title" className="space-y-3 border-t pt-4">
              <div className="flex items-center justify-between gap-2">
                <h4 id="lead-enrichment-title" className="flex items-center gap-2 text-sm font-semibold">
                  <Sparkles className="size-4 text-muted-foreground" aria-hidden />
                  Enrichment
                </h4>
                <EnrichmentStatusBadge status={lead.enrichmentStatus} enrichmentOn={enrichmentOn} />
              </div>
              {lead.enrichment ? (
                <>
                  <p className="text-sm text-muted-foreground">
                    From {lead.enrichment.provider} on {formatDateTime(lead.enrichment.enrichedAt)}
                  </p>
                  <Facts
                    items={[
                      ['Name', lead.enrichment.name],
                      ['Title', lead.enrichment.title],
                      ['Company', lead.enrichment.company],
                      ['Domain', lead.enrichment.domain],
                      ['Industry', lead.enrichment.industry],
                      ['Company size', lead.enrichment.size],
                      ['Location', lead.enrichment.location],
                      [
                        'LinkedIn',
                        linkedin ? (
                          <a href={linkedin} target="_blank" rel="noopener noreferrer" className="text-primary underline-offset-4 hover:underline wrap-anywhere">
                            {linkedin}
                          </a>
                        ) : null,
                      ],
                    ]}
                  />
                </>
              ) : lead.enrichmentStatus === 'pending' && !enrichmentOn ? (
                // Without a provider a pending job only ends at its deadline: promise nothing.
                <div className="flex items-start gap-2 rounded-md bg-muted p-3 text-sm">
                  <Hourglass className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                  <p>
                    <span className="font-medium">Enrichment is off</span> — this server has no enrichment provider, so no details will be
                    added. An administrator turns it on by setting <code>ENRICHMENT_PROVIDER</code> (see docs/identification.md).
                  </p>
                </div>
              ) : lead.enrichmentStatus === 'pending' ? (
                <div className="flex items-start gap-2 rounded-md bg-muted p-3 text-sm">
                  <Hourglass className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                  <p>
                    <span className="font-medium">Enrichment pending</span> — Data enrichment may take up to 24 hours.
                  </p>
                </div>
              ) : lead.enrichmentStatus === 'failed' ? (
                <p className="text-sm text-muted-foreground">
                  No details were found.{' '}
                  {typeof failure?.detail.reason === 'string' ? (enrichmentFailureLabels[failure.detail.reason] ?? failure.detail.reason) : null}
                </p>
              ) : (
                <p className="text-sm text-muted-foreground">Not enriched.</p>
              )}
            </section>
          </CardContent>
        </Card>

        <div className="space-y-6">
          <Card role="region" aria-labelledby="lead-activity-title">
            <CardHeader>
              <CardTitle id="lead-activity-title">Activity</CardTitle>
              <CardDescription>On {lead.websiteName}</CardDescription>
            </CardHeader>
            <CardContent>
              <Facts
                items={[
                  ['First seen', formatDateTime(lead.firstSeen)],
                  ['Last seen', formatDateTime(lead.lastSeen)],
                  ['Pages viewed', formatNumber(lead.pagesViewed)],
                  ['Engagement', formatEngagement(lead.engagedSeconds)],
                ]}
              />
            </CardContent>
          </Card>
          <Card role="region" aria-labelledby="lead-proof-title">
            <CardHeader>
              <CardTitle id="lead-proof-title">Consent proof</CardTitle>
              <CardDescription>The visitor's own choice this identification rests on</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              <Facts
                items={[
                  ['Consent', <ConsentStatusBadge key="status" status={lead.consentStatus} />],
                  ['Chosen', formatDateTime(lead.consentChangedAt)],
                  ['Consent event', <span key="id" className="font-mono text-xs wrap-anywhere">{lead.consentEventId}</span>],
                ]}
              />
              <Button asChild variant="outline" size="sm">
                <Link to="/receipts/$consentId" params={{ consentId: lead.consentEventId }}>
                  <FileCheck aria-hidden />
                  Consent receipt
                </Link>
              </Button>
            </CardContent>
          </Card>
        </div>
      </div>

      <LeadTimeline timeline={timeline} />
    </>
  );
}

/** Label–value pairs; a missing value reads '—'. */
function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
      {items.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="text-sm wrap-anywhere">{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

const timelineIcons: Record<TimelineKind, LucideIcon> = {
  page_view: Eye,
  consent: ShieldCheck,
  identified: UserCheck,
  company_matched: Building2,
  enriched: CircleCheck,
  enrichment_failed: CircleX,
};

function LeadTimeline({ timeline }: { timeline: TimelineEntry[] }) {
  const entries = sortTimelineNewestFirst(timeline);
  return (
    <Card className="mt-6" role="region" aria-labelledby="lead-timeline-title">
      <CardHeader>
        <CardTitle id="lead-timeline-title">Timeline</CardTitle>
        <CardDescription>Visits, choices, identification and enrichment, newest first</CardDescription>
      </CardHeader>
      <CardContent>
        {entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing recorded yet.</p>
        ) : (
          <ol className="space-y-4" aria-label="Timeline">
            {entries.map((entry, index) => {
              const line = describeTimelineEntry(entry);
              const Icon = timelineIcons[entry.kind] ?? Eye;
              const receiptOf = entry.kind === 'consent' && typeof entry.detail.eventId === 'string' ? entry.detail.eventId : null;
              return (
                <li key={`${entry.at}-${index}`} className="flex gap-3">
                  <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-muted">
                    <Icon className="size-4 text-muted-foreground" aria-hidden />
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium wrap-anywhere">{line.title}</p>
                    {line.detail ? <p className="text-sm wrap-anywhere text-muted-foreground">{line.detail}</p> : null}
                    <p className="text-xs text-muted-foreground">
                      <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                      {receiptOf ? (
                        <>
                          {' · '}
                          <Link to="/receipts/$consentId" params={{ consentId: receiptOf }} className="text-primary underline-offset-4 hover:underline">
                            Receipt
                          </Link>
                        </>
                      ) : null}
                    </p>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
