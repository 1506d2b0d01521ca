// The report of a website's latest completed scan: its findings first (most serious first, each with
// the pages it was seen on), then every cookie and storage key it saw with the owner's own purpose
// for it, then what changed since the completed scan before it.
import { useQuery } from '@tanstack/react-query';
import { Check, Minus } from 'lucide-react';
import { useId } from 'react';
import { ErrorState, LoadingState } from '../../components/query-state';
import { useToast } from '../../components/toaster';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { getServerMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { formatCount, formatDateTime, formatNumber } from '../../lib/format';
import {
  findingCodeLabels,
  findingSeverityClasses,
  findingSeverityLabels,
  formatProvider,
  formatRetention,
  scannedPurposeLabels,
  splitPageUrl,
  storageKindLabels,
  unclassifiedLabel,
} from './labels';
import {
  itemPurposesQueryOptions,
  scannedPurposes,
  scanReportQueryOptions,
  useAssignItemPurpose,
  type ItemPurposeAssignment,
  type ScanFinding,
  type ScannedItem,
  type ScannedPurpose,
  type ScanSummary,
} from './queries';
import { diffScans, findingKey, isEmptyDiff, itemKey } from './scan-diff';

export function ScanReportSection({ websiteId, latest, previous }: { websiteId: string; latest: ScanSummary; previous: ScanSummary | undefined }) {
  const report = useQuery(scanReportQueryOptions(latest.scanId));
  if (report.isPending) return <LoadingState />;
  if (report.isError) return <ErrorState title="The scan report could not be loaded." error={report.error} />;
  const scannedOn = formatDateTime(report.data.completedAt ?? report.data.requestedAt);
  return (
    <>
      <FindingsCard findings={report.data.findings} scan={report.data} scannedOn={scannedOn} />
      <ItemsCard websiteId={websiteId} items={report.data.items} />
      {previous ? <ScanChangesCard latestFindings={report.data.findings} latestItems={report.data.items} previous={previous} /> : null}
    </>
  );
}

export function FindingSeverityBadge({ severity }: { severity: ScanFinding['severity'] }) {
  return <Badge className={findingSeverityClasses[severity]}>{findingSeverityLabels[severity]}</Badge>;
}

function FindingsCard({ findings, scan, scannedOn }: { findings: ScanFinding[]; scan: ScanSummary; scannedOn: string }) {
  const pages = scan.pagesScanned ?? 0;
  return (
    <Card role="region" aria-labelledby="scan-findings-title">
      <CardHeader>
        <CardTitle id="scan-findings-title">Findings</CardTitle>
        <CardDescription>
          Latest scan: {scannedOn}, {formatCount(pages, 'page')} visited
          {scan.truncated ? ' before it reached its time limit' : ''}. Most serious first.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {findings.length === 0 ? (
          <p className="rounded-md border border-green-200 bg-green-50 p-4 text-sm text-green-900">
            No findings: nothing was set before consent or kept after Reject All, the banner appeared on every page, and every cookie is declared.
          </p>
        ) : (
          <ul aria-label="Findings" className="space-y-3">
            {findings.map((finding) => (
              <FindingEntry key={findingKey(finding)} finding={finding} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function FindingEntry({ finding }: { finding: ScanFinding }) {
  const more = finding.pageCount - finding.pages.length;
  return (
    <li className="min-w-0 rounded-md border p-4">
      <div className="flex flex-wrap items-center gap-2">
        <FindingSeverityBadge severity={finding.severity} />
        <Badge variant="outline">{findingCodeLabels[finding.code]}</Badge>
      </div>
      <p className="mt-2 text-sm wrap-anywhere">{finding.message}</p>
      {finding.pages.length > 0 ? (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer text-muted-foreground select-none hover:text-foreground">
            {finding.pageCount === 1 ? 'Seen on 1 page' : `Seen on ${formatNumber(finding.pageCount)} pages`}
          </summary>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {finding.pages.map((page) => (
              <li key={page} className="wrap-anywhere">
                {page}
              </li>
            ))}
          </ul>
          {more > 0 ? <p className="mt-1 pl-5 text-muted-foreground">and {formatCount(more, 'more page')}</p> : null}
        </details>
      ) : null}
    </li>
  );
}

function PurposeBadge({ item }: { item: ScannedItem }) {
  if (item.purpose === null) return <Badge variant="warning">{unclassifiedLabel}</Badge>;
  return (
    <Badge variant="outline" title={item.source === 'owner' ? 'Your purpose' : 'From the Open Cookie Database'}>
      {scannedPurposeLabels[item.purpose]}
      {item.source === 'owner' ? ' (yours)' : ''}
    </Badge>
  );
}

const seenMoments = [
  { key: 'seenBefore', label: 'Before choice' },
  { key: 'seenAfterAccept', label: 'After Accept' },
  { key: 'seenAfterReject', label: 'After Reject' },
] as const satisfies readonly { key: keyof ScannedItem; label: string }[];

/** When the item was there: before any choice, after Accept All, after Reject All. */
function SeenMarkers({ item }: { item: ScannedItem }) {
  return (
    <ul className="space-y-0.5 text-xs whitespace-nowrap">
      {seenMoments.map(({ key, label }) => (
        <li key={key} className={cn('flex items-center gap-1', !item[key] && 'text-muted-foreground')}>
          {item[key] ? <Check className="size-3.5 text-foreground" aria-hidden /> : <Minus className="size-3.5" aria-hidden />}
          {label}
          <span className="sr-only">{item[key] ? ': seen' : ': not seen'}</span>
        </li>
      ))}
    </ul>
  );
}

/** A page's path, with its host below (subdomains are crawled too); the whole address on hover. */
function PageCell({ url }: { url: string }) {
  const { host, path } = splitPageUrl(url);
  return (
    <span title={url}>
      <span className="block wrap-anywhere">{path}</span>
      {host ? <span className="block text-xs text-muted-foreground wrap-anywhere">{host}</span> : null}
    </span>
  );
}

function ItemsCard({ websiteId, items }: { websiteId: string; items: ScannedItem[] }) {
  const assignments = useQuery(itemPurposesQueryOptions(websiteId));
  const assigned = new Map((assignments.data ?? []).map((assignment) => [itemKey(assignment), assignment.purpose]));
  const unclassified = items.filter((item) => item.purpose === null).length;
  return (
    <Card role="region" aria-labelledby="scan-items-title">
      <CardHeader>
        <CardTitle id="scan-items-title">Cookies and storage</CardTitle>
        <CardDescription>
          {formatCount(items.length, 'item')} seen
          {unclassified > 0 ? `, ${formatNumber(unclassified)} ${unclassified === 1 ? 'is' : 'are'} Unclassified` : ''}. Set your own purpose
          for any item: it wins over the Open Cookie Database and applies from the next scan.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {items.length === 0 ? (
          <p className="text-sm text-muted-foreground">The scan found no cookies or storage keys.</p>
        ) : (
          <Table aria-label="Cookies and storage">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Kind</TableHead>
                <TableHead>Purpose</TableHead>
                <TableHead>Provider</TableHead>
                <TableHead>Expiry</TableHead>
                <TableHead>First seen on</TableHead>
                <TableHead>Seen</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((item) => (
                <TableRow key={itemKey(item)} className="align-top [&>td]:align-top">
                  <TableCell className="min-w-28">
                    <span className="block font-medium wrap-anywhere">{item.name}</span>
                    <span className="block text-xs text-muted-foreground wrap-anywhere">{item.domain}</span>
                  </TableCell>
                  <TableCell>
                    <span className="block">{storageKindLabels[item.kind]}</span>
                    <span className="block text-xs whitespace-nowrap text-muted-foreground">{item.firstParty ? 'First party' : 'Third party'}</span>
                  </TableCell>
                  <TableCell className="min-w-44 space-y-2">
                    <PurposeBadge item={item} />
                    <ItemPurposeSelect websiteId={websiteId} item={item} assigned={assigned.get(itemKey(item)) ?? null} disabled={assignments.isPending} />
                  </TableCell>
                  <TableCell className="min-w-24">{formatProvider(item.platform, item.controller)}</TableCell>
                  <TableCell className="min-w-20">{formatRetention(item.retention)}</TableCell>
                  <TableCell className="min-w-28">
                    <PageCell url={item.firstSeenUrl} />
                  </TableCell>
                  <TableCell>
                    <SeenMarkers item={item} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <AssignmentsList assignments={assignments.data ?? []} />
      </CardContent>
    </Card>
  );
}

const notAssigned = 'none';

/** Whether the owner's current purpose differs from what the scan applied, so it shows from the next scan. */
function appliesFromNextScan(item: ScannedItem, assigned: ScannedPurpose | null): boolean {
  const applied = item.source === 'owner' ? item.purpose : null;
  return applied !== assigned;
}

function ItemPurposeSelect({ websiteId, item, assigned, disabled }: { websiteId: string; item: ScannedItem; assigned: ScannedPurpose | null; disabled: boolean }) {
  const assign = useAssignItemPurpose(websiteId);
  const { toast } = useToast();
  const hintId = useId();
  const pending = appliesFromNextScan(item, assigned);
  return (
    <div className="space-y-1">
      <Select
        value={assigned ?? notAssigned}
        disabled={disabled || assign.isPending}
        onValueChange={(value) => {
          const purpose = value === notAssigned ? null : (scannedPurposes.find((candidate) => candidate === value) ?? null);
          assign.mutate(
            { kind: item.kind, name: item.name, purpose },
            {
              onSuccess: () =>
                toast({
                  title: 'Purpose saved',
                  description: purpose
                    ? `${item.name} counts as ${scannedPurposeLabels[purpose]} from the next scan.`
                    : `${item.name} is classified by the Open Cookie Database again from the next scan.`,
                }),
              onError: (error) => toast({ title: 'Purpose not saved', description: getServerMessage(error), variant: 'destructive' }),
            },
          );
        }}
      >
        <SelectTrigger className="h-9 w-44" aria-label={`Your purpose for ${item.name}`} aria-describedby={pending ? hintId : undefined}>
          <SelectValue>{assigned ? `Yours: ${scannedPurposeLabels[assigned]}` : 'Set your purpose'}</SelectValue>
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={notAssigned}>Not set</SelectItem>
          {scannedPurposes.map((purpose) => (
            <SelectItem key={purpose} value={purpose}>
              {scannedPurposeLabels[purpose]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {pending ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          From the next scan
        </p>
      ) : null}
    </div>
  );
}

function AssignmentsList({ assignments }: { assignments: ItemPurposeAssignment[] }) {
  if (assignments.length === 0) return null;
  return (
    <section aria-labelledby="item-purposes-title" className="space-y-2">
      <h4 id="item-purposes-title" className="text-sm font-medium">
        Your purposes
      </h4>
      <ul className="flex flex-wrap gap-2">
        {assignments.map((assignment) => (
          <li key={itemKey(assignment)} className="rounded-md border bg-muted/40 px-2 py-1 text-xs wrap-anywhere">
            <span className="font-medium">{assignment.name}</span> ({storageKindLabels[assignment.kind]}): {scannedPurposeLabels[assignment.purpose]}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ScanChangesCard({ latestFindings, latestItems, previous }: { latestFindings: ScanFinding[]; latestItems: ScannedItem[]; previous: ScanSummary }) {
  const previousReport = useQuery(scanReportQueryOptions(previous.scanId));
  return (
    <Card role="region" aria-labelledby="scan-changes-title">
      <CardHeader>
        <CardTitle id="scan-changes-title">What changed</CardTitle>
        <CardDescription>Since the scan of {formatDateTime(previous.completedAt ?? previous.requestedAt)}.</CardDescription>
      </CardHeader>
      <CardContent>
        {previousReport.isPending ? (
          <LoadingState />
        ) : previousReport.isError ? (
          <ErrorState title="The previous scan could not be loaded." error={previousReport.error} />
        ) : (
          <ScanChanges diff={diffScans(previousReport.data, { findings: latestFindings, items: latestItems })} />
        )}
      </CardContent>
    </Card>
  );
}

function ScanChanges({ diff }: { diff: ReturnType<typeof diffScans> }) {
  if (isEmptyDiff(diff)) return <p className="text-sm text-muted-foreground">Nothing changed: the same findings and the same cookies and storage keys.</p>;
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <ChangeList title="New findings" empty="No new findings." entries={diff.newFindings.map((finding) => ({ key: findingKey(finding), finding }))} tone="bad" />
      <ChangeList title="Resolved findings" empty="None resolved." entries={diff.resolvedFindings.map((finding) => ({ key: findingKey(finding), finding }))} tone="good" />
      <ChangeList title="New cookies and storage" empty="Nothing new." entries={diff.newItems.map((item) => ({ key: itemKey(item), item }))} />
      <ChangeList title="Gone cookies and storage" empty="Nothing gone." entries={diff.goneItems.map((item) => ({ key: itemKey(item), item }))} />
    </div>
  );
}

type ChangeEntry = { key: string; finding: ScanFinding; item?: undefined } | { key: string; item: ScannedItem; finding?: undefined };

function ChangeList({ title, empty, entries, tone }: { title: string; empty: string; entries: ChangeEntry[]; tone?: 'good' | 'bad' }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="min-w-0 space-y-2">
      <h4 id={titleId} className={cn('text-sm font-medium', tone === 'bad' && entries.length > 0 && 'text-destructive', tone === 'good' && entries.length > 0 && 'text-green-700')}>
        {title} ({formatNumber(entries.length)})
      </h4>
      {entries.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="space-y-2 text-sm">
          {entries.map((entry) => (
            <li key={entry.key} className="flex min-w-0 flex-wrap items-start gap-2">
              {entry.finding ? (
                <>
                  <FindingSeverityBadge severity={entry.finding.severity} />
                  <span className="min-w-0 flex-1 wrap-anywhere">{entry.finding.message}</span>
                </>
              ) : (
                <>
                  <span className="font-medium wrap-anywhere">{entry.item.name}</span>
                  <span className="text-muted-foreground">
                    {storageKindLabels[entry.item.kind]} · {entry.item.purpose ? scannedPurposeLabels[entry.item.purpose] : unclassifiedLabel}
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
