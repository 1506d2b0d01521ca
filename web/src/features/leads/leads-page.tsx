// The Leads screen (/leads): visitors who allowed identification and were identified, with search,
// filters (website, company, consent status, enrichment, identified between two days), sortable
// columns, "Load more" keyset pages, the CSV export and audience files for ads platforms. The search
// lives in the URL (the route hands it in); the list refreshes on its own when the leads projection
// advances (live updates invalidate ['leads']). The Leads tab of a website's page shows the same list
// for its one website (`website`): no website filter, and the tab's own heading.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronDown, Download, FileDown, Search, Settings, SlidersHorizontal } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { DayAndTime } from '../../components/day-and-time';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { useToast } from '../../components/toaster';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../../components/ui/dropdown-menu';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue, wrappingTrigger } from '../../components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { formatCount, formatDateTime, formatNumber } from '../../lib/format';
import { useMediaQuery } from '../../lib/use-media-query';
import { useSession } from '../auth/use-session';
import { downloadFile } from '../export/download-export';
import { leadIdentificationAnchor } from '../website-settings/validation';
import { websitesQueryOptions, type Website } from '../websites/queries';
import { getWebsitesPath } from '../websites/redirects';
import { WebsiteTabHeading } from '../websites/website-page';
import { ConsentStatusBadge, EnrichmentStatusBadge } from './badges';
import {
  consentStatusLabels,
  enrichmentStatusLabels,
  formatEngagement,
  formatLeadSource,
  getLeadDisplayName,
} from './labels';
import { leadsQueryOptions, type EnrichmentStatus, type LeadConsentStatus, type LeadSummary } from './queries';
import {
  audienceFormatLabels,
  audienceFormats,
  buildAudienceUrl,
  buildLeadsExportUrl,
  clearLeadFilters,
  enrichmentFilters,
  getLeadSort,
  hasLeadFilters,
  leadsSearchDebounceMs,
  leadStatuses,
  maxLeadsSearchLength,
  parseLeadsSearch,
  toggleLeadSort,
  type AudienceFormat,
  type LeadSortColumn,
  type LeadsSearch,
} from './search';

const anyValue = 'all';

export interface LeadsPageProps {
  search: LeadsSearch;
  /** Replaces the URL's search (typing replaces the history entry; other changes add one). */
  onSearchChange: (next: LeadsSearch, options?: { replace?: boolean }) => void;
  /** The one website whose leads are listed (its page's Leads tab); `search.websiteId` is then its id. */
  website?: Website;
}

export function LeadsPage({ search: searchInUrl, onSearchChange, website }: LeadsPageProps) {
  const websites = useQuery(websitesQueryOptions());
  const search = website ? { ...searchInUrl, websiteId: website.id } : searchInUrl;
  const leads = useInfiniteQuery(leadsQueryOptions(search));
  const rows = leads.data?.pages.flatMap((page) => page.leads) ?? [];
  // Without a provider a pending enrichment never comes: the badges say it is off instead.
  const enrichmentOn = leads.data?.pages[0]?.enrichmentOn ?? true;
  // On a website's tab its website is not a filter the owner chose: nothing to clear.
  const filtered = hasLeadFilters(website ? { ...search, websiteId: undefined } : search);

  function change(next: LeadsSearch, options?: { replace?: boolean }) {
    onSearchChange(parseLeadsSearch({ ...next, ...(website ? { websiteId: undefined } : {}) }), options);
  }

  return (
    <>
      {website ? (
        <WebsiteTabHeading
          title="Leads"
          description={`Visitors of ${website.name} who allowed identification and told you who they are.`}
          action={<LeadExports search={search} />}
        />
      ) : (
        <PageHeader
          title="Leads"
          description="Visitors who allowed identification and told you who they are."
          action={<LeadExports search={search} />}
        />
      )}
      <LeadFilters search={search} websites={websites.data ?? []} onChange={change} websiteFixed={website !== undefined} />

      {leads.isPending ? (
        <LoadingState />
      ) : leads.isError ? (
        <ErrorState title="Leads could not be loaded." error={leads.error} />
      ) : rows.length === 0 ? (
        <Card>
          {filtered ? (
            <EmptyState title="No leads match these filters" description="Change the search or the filters, or clear them to see every lead.">
              <Button variant="outline" onClick={() => change(clearLeadFilters(search))}>
                Clear filters
              </Button>
            </EmptyState>
          ) : (
            <NoLeads websites={website ? [website] : (websites.data ?? [])} />
          )}
        </Card>
      ) : (
        <Card>
          <CardContent className="p-0 sm:p-0">
            <LeadsTable leads={rows} search={search} enrichmentOn={enrichmentOn} onSort={(next) => change(next)} />
          </CardContent>
          <div className="flex flex-col items-center gap-2 border-t p-4 sm:flex-row sm:justify-between">
            <p className="text-sm text-muted-foreground" role="status">
              {formatNumber(rows.length)} {rows.length === 1 ? 'lead' : 'leads'} shown{leads.hasNextPage ? ', more to load' : ''}
            </p>
            {leads.hasNextPage ? (
              <Button variant="outline" disabled={leads.isFetchingNextPage} onClick={() => void leads.fetchNextPage()}>
                {leads.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            ) : null}
          </div>
        </Card>
      )}
    </>
  );
}

/** Export CSV and the audience files, for the filters in use. */
function LeadExports({ search }: { search: LeadsSearch }) {
  const [busy, setBusy] = useState(false);
  const { toast } = useToast();

  async function download(url: string, fallbackName: string) {
    setBusy(true);
    try {
      await downloadFile(url, fallbackName);
      toast({ title: 'Export successful', description: 'Your leads have been downloaded.' });
    } catch {
      toast({ title: 'Export failed', description: 'Failed to export data. Please try again.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  const day = new Date().toISOString().slice(0, 10);
  // The export holds only leads whose identification stands: with withdrawn ones chosen it would hold none of them.
  const withdrawnOnly = search.status === 'withdrawn';
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="outline"
        disabled={busy || withdrawnOnly}
        title={withdrawnOnly ? 'Withdrawn leads are never exported.' : undefined}
        onClick={() => void download(buildLeadsExportUrl(search), `leads-${day}.csv`)}
      >
        <Download aria-hidden />
        {busy ? 'Exporting...' : 'Export CSV'}
      </Button>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" disabled={busy}>
            <FileDown aria-hidden />
            Audience file
            <ChevronDown aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="max-w-72">
          <DropdownMenuLabel className="font-normal text-muted-foreground">
            Hashed emails of leads who still allow identification{search.websiteId ? ', this website only' : ''}
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          {audienceFormats.map((format: AudienceFormat) => (
            <DropdownMenuItem key={format} onSelect={() => void download(buildAudienceUrl(format, search.websiteId), `audience-${format}-${day}.csv`)}>
              {audienceFormatLabels[format]}
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}

/**
 * A text filter applied once typing rests for a moment, so each key press does not load the list.
 * Follows the URL when it changes elsewhere (Clear filters, the Back button).
 */
function DebouncedInput({
  id,
  value,
  onCommit,
  ...props
}: {
  id: string;
  value: string;
  onCommit: (value: string) => void;
  placeholder: string;
  type?: 'search' | 'text';
  className?: string;
}) {
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setDraft(value);
  }
  const commit = useRef(onCommit);
  useEffect(() => {
    commit.current = onCommit;
  });
  useEffect(() => {
    if (draft.trim() === value) return;
    const timer = setTimeout(() => commit.current(draft.trim()), leadsSearchDebounceMs);
    return () => clearTimeout(timer);
  }, [draft, value]);
  return <Input id={id} maxLength={maxLeadsSearchLength} value={draft} onChange={(event) => setDraft(event.target.value)} {...props} />;
}

/** The filters besides the search box that are in use, for the narrow screen's "Filters" button. */
function countNarrowingFilters(search: LeadsSearch, websiteFixed: boolean): number {
  return [websiteFixed ? undefined : search.websiteId, search.company, search.status, search.enrichment, search.from, search.to].filter((value) => value !== undefined && value !== '').length;
}

function LeadFilters({
  search,
  websites,
  onChange,
  websiteFixed,
}: {
  search: LeadsSearch;
  websites: Website[];
  onChange: (next: LeadsSearch, options?: { replace?: boolean }) => void;
  websiteFixed: boolean;
}) {
  const id = useId();
  const rangeProblem = search.from && search.to && search.from > search.to ? 'The start day is after the end day: no lead can match.' : null;
  // On a phone the six filters would fill the screen before the first lead: they fold behind a button
  // that says how many are in use; the search stays.
  const wide = useMediaQuery('(min-width: 768px)');
  const [unfolded, setUnfolded] = useState(false);
  const inUse = countNarrowingFilters(search, websiteFixed);
  const folded = !wide && !unfolded;
  return (
    <Card className="mb-6">
      <CardContent className="grid gap-4 p-4 sm:grid-cols-2 sm:p-6 lg:grid-cols-4">
        <div className="space-y-2 sm:col-span-2">
          <Label htmlFor={`${id}-q`}>Search</Label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-3 left-3 size-4 text-muted-foreground" aria-hidden />
            <DebouncedInput
              id={`${id}-q`}
              type="search"
              className="pl-9"
              placeholder="Start of an email, name or company"
              value={search.q ?? ''}
              onCommit={(q) => onChange({ ...search, q }, { replace: true })}
            />
          </div>
        </div>
        {!wide ? (
          <div className="flex items-center justify-between gap-2">
            <Button variant="outline" size="sm" aria-expanded={!folded} aria-controls={`${id}-more`} onClick={() => setUnfolded(!unfolded)}>
              <SlidersHorizontal aria-hidden />
              {folded ? 'Show filters' : 'Hide filters'}
              {inUse > 0 ? ` (${inUse} in use)` : ''}
            </Button>
          </div>
        ) : null}
        <div id={`${id}-more`} hidden={folded} className="contents">
          <div className="space-y-2" hidden={websiteFixed}>
            <Label htmlFor={`${id}-website`}>Website</Label>
            <Select value={search.websiteId ?? anyValue} onValueChange={(value) => onChange({ ...search, websiteId: value === anyValue ? undefined : value })}>
              <SelectTrigger id={`${id}-website`} className={wrappingTrigger}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={anyValue}>All Websites</SelectItem>
                {websites.map((website) => (
                  <SelectItem key={website.id} value={website.id}>
                    {website.name} ({website.domain})
                  </SelectItem>
                ))}
                {/* A website from a shared link that is not (or no longer) in the list still shows as chosen. */}
                {search.websiteId && !websites.some((website) => website.id === search.websiteId) ? (
                  <SelectItem value={search.websiteId}>Unknown website</SelectItem>
                ) : null}
              </SelectContent>
            </Select>
          </div>
          <div className="space-y-2">
            <Label htmlFor={`${id}-company`}>Company</Label>
            <DebouncedInput
              id={`${id}-company`}
              placeholder="Company name, exactly"
              value={search.company ?? ''}
              onCommit={(company) => onChange({ ...search, company }, { replace: true })}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor={`${id}-status`}>Consent</Label>
            <Select
              value={search.status ?? anyValue}
              onValueChange={(value) => onChange({ ...search, status: value === anyValue ? undefined : (value as LeadConsentStatus) })}
            >
              <SelectTrigger id={`${id}-status`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={anyValue}>Any consent</SelectItem>
                {leadStatuses.map((status) => (
                  <SelectItem key={status} value={status}>
                    {consentStatusLabels[status]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="space-y-2">
            <Label htmlFor={`${id}-enrichment`}>Enrichment</Label>
            <Select
              value={search.enrichment ?? anyValue}
              onValueChange={(value) => onChange({ ...search, enrichment: value === anyValue ? undefined : (value as EnrichmentStatus) })}
            >
              <SelectTrigger id={`${id}-enrichment`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={anyValue}>Any enrichment</SelectItem>
                {enrichmentFilters.map((status) => (
                  <SelectItem key={status} value={status}>
                    {enrichmentStatusLabels[status]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="space-y-2">
            <Label htmlFor={`${id}-from`}>Identified from</Label>
            <Input
              id={`${id}-from`}
              type="date"
              value={search.from ?? ''}
              max={search.to}
              aria-invalid={rangeProblem !== null}
              onChange={(event) => onChange({ ...search, from: event.target.value || undefined })}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor={`${id}-to`}>Identified to</Label>
            <Input
              id={`${id}-to`}
              type="date"
              value={search.to ?? ''}
              min={search.from}
              aria-invalid={rangeProblem !== null}
              aria-describedby={rangeProblem ? `${id}-range-problem` : undefined}
              onChange={(event) => onChange({ ...search, to: event.target.value || undefined })}
            />
          </div>
          {rangeProblem ? (
            <p id={`${id}-range-problem`} className="text-sm text-destructive sm:col-span-2 lg:col-span-4">
              {rangeProblem}
            </p>
          ) : null}
        </div>
        {hasLeadFilters(websiteFixed ? { ...search, websiteId: undefined } : search) ? (
          <div className="flex items-end">
            <Button variant="ghost" onClick={() => onChange(clearLeadFilters(search))}>
              Clear filters
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The empty list, with the way to start: Lead identification in a website's settings. */
function NoLeads({ websites }: { websites: Website[] }) {
  const session = useSession();
  return (
    <EmptyState
      title="No leads yet"
      description="Leads are visitors who allowed identification on your banner and then sent a form with an email field, or whom your site identified with Consentry.identify. Turn on Lead identification in a website's settings: its banner then asks visitors for it, and only those who allow it are identified."
    >
      {websites.length === 0 ? (
        <Button asChild variant="outline">
          <Link to={getWebsitesPath(session)}>Go to Websites</Link>
        </Button>
      ) : (
        <ul className="flex flex-col items-center gap-2">
          {websites.map((website) => (
            <li key={website.id}>
              <Button asChild variant="outline">
                <Link to="/websites/$websiteId/banner" params={{ websiteId: website.id }} hash={leadIdentificationAnchor}>
                  <Settings aria-hidden />
                  Lead identification on {website.name}
                </Link>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </EmptyState>
  );
}

/** The lead's name (or email) and, under a name, the email: one link to the lead's page. */
function LeadLink({ lead }: { lead: LeadSummary }) {
  return (
    <Link
      to="/leads/$websiteId/$visitorId"
      params={{ websiteId: lead.websiteId, visitorId: lead.visitorId }}
      className="group block min-w-0 rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      <span className="block font-medium break-words text-primary underline-offset-4 group-hover:underline">{getLeadDisplayName(lead)}</span>
      {lead.email && lead.name ? (
        <>
          {/* A space, so the link reads "name email" rather than the two run together. */}{' '}
          <span className="block text-xs break-all text-muted-foreground">{lead.email}</span>
        </>
      ) : null}
    </Link>
  );
}

function SortableHead({ column, label, search, onSort }: { column: LeadSortColumn; label: string; search: LeadsSearch; onSort: (column: LeadSortColumn) => void }) {
  const { sort, order } = getLeadSort(search);
  const active = sort === column;
  const Icon = active ? (order === 'asc' ? ArrowUp : ArrowDown) : ArrowUpDown;
  return (
    <TableHead aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="inline-flex items-center gap-1 rounded-sm hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none" onClick={() => onSort(column)}>
        {label}
        <Icon className="size-3.5" aria-hidden />
      </button>
    </TableHead>
  );
}

const sortChoices: { value: string; label: string }[] = [
  { value: 'lastSeen:desc', label: 'Last seen, newest first' },
  { value: 'lastSeen:asc', label: 'Last seen, oldest first' },
  { value: 'identifiedAt:desc', label: 'Identified, newest first' },
  { value: 'identifiedAt:asc', label: 'Identified, oldest first' },
  { value: 'email:asc', label: 'Email, A to Z' },
  { value: 'email:desc', label: 'Email, Z to A' },
];

function LeadsTable({ leads, search, enrichmentOn, onSort }: { leads: LeadSummary[]; search: LeadsSearch; enrichmentOn: boolean; onSort: (next: LeadsSearch) => void }) {
  // One of the two, never both: each lead is in the page once (for screen readers and for tests).
  const wide = useMediaQuery('(min-width: 768px)');
  const id = useId();
  if (!wide) {
    const { sort, order } = getLeadSort(search);
    return (
      <>
        <div className="flex items-center gap-3 border-b p-4">
          <Label htmlFor={`${id}-sort`} className="shrink-0">
            Sort
          </Label>
          <Select
            value={`${sort}:${order}`}
            onValueChange={(value) => {
              const [column, direction] = value.split(':');
              onSort(parseLeadsSearch({ ...search, sort: column, order: direction }));
            }}
          >
            <SelectTrigger id={`${id}-sort`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {sortChoices.map((choice) => (
                <SelectItem key={choice.value} value={choice.value}>
                  {choice.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <ul className="divide-y" aria-label="Leads">
          {leads.map((lead) => (
            <li key={`${lead.websiteId}/${lead.visitorId}`} className="space-y-1 p-4">
              <div className="flex items-start justify-between gap-3">
                <LeadLink lead={lead} />
                <ConsentStatusBadge status={lead.consentStatus} />
              </div>
              <p className="text-sm wrap-anywhere">{[lead.company, lead.title].filter(Boolean).join(' · ') || '—'}</p>
              <p className="text-xs text-muted-foreground">
                {lead.websiteName} · last seen {formatDateTime(lead.lastSeen)} · {formatCount(lead.pagesViewed, 'page')} ·{' '}
                {formatEngagement(lead.engagedSeconds)} engaged
              </p>
              <EnrichmentStatusBadge status={lead.enrichmentStatus} enrichmentOn={enrichmentOn} />
            </li>
          ))}
        </ul>
      </>
    );
  }
  const sortBy = (column: LeadSortColumn) => onSort(toggleLeadSort(search, column));
  return (
    <Table aria-label="Leads">
      <TableHeader>
        <TableRow>
          <SortableHead column="email" label="Lead" search={search} onSort={sortBy} />
          <TableHead>Company</TableHead>
          <TableHead>Website</TableHead>
          <SortableHead column="identifiedAt" label="Identified" search={search} onSort={sortBy} />
          <SortableHead column="lastSeen" label="Last seen" search={search} onSort={sortBy} />
          <TableHead>Activity</TableHead>
          <TableHead>Status</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {leads.map((lead) => (
          <TableRow key={`${lead.websiteId}/${lead.visitorId}`}>
            <TableCell className="max-w-56 min-w-40">
              <LeadLink lead={lead} />
            </TableCell>
            <TableCell className="max-w-48 min-w-32">
              <p className="break-words">{lead.company ?? '—'}</p>
              {lead.title ? <p className="text-xs break-words text-muted-foreground">{lead.title}</p> : null}
            </TableCell>
            <TableCell className="max-w-40 min-w-24 break-words">{lead.websiteName}</TableCell>
            <TableCell>
              <DayAndTime value={lead.identifiedAt} />
              <p className="text-xs whitespace-nowrap text-muted-foreground">via {formatLeadSource(lead.source)}</p>
            </TableCell>
            <TableCell>
              <DayAndTime value={lead.lastSeen} />
            </TableCell>
            <TableCell className="whitespace-nowrap">
              <p>{formatCount(lead.pagesViewed, 'page')}</p>
              <p className="text-xs text-muted-foreground">{formatEngagement(lead.engagedSeconds)} engaged</p>
            </TableCell>
            <TableCell>
              <div className="flex flex-col items-start gap-1">
                <ConsentStatusBadge status={lead.consentStatus} />
                <EnrichmentStatusBadge status={lead.enrichmentStatus} enrichmentOn={enrichmentOn} />
              </div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
