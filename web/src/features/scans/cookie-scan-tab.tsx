// The Cookie scan tab of a website (docs/scanner.md): start a scan and follow its progress, read the
// latest completed scan's report (findings first, then every cookie and storage key, with the owner's
// own purposes), what changed since the scan before it, the scan history, and how often the website
// is scanned on its own. Loaded lazily: only owners who open the tab download it.
import { useQuery } from '@tanstack/react-query';
import { Radar } from 'lucide-react';
import { DayAndTime } from '../../components/day-and-time';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Progress } from '../../components/ui/progress';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { getServerMessage } from '../../lib/api';
import { useMediaQuery } from '../../lib/use-media-query';
import { formatCount, formatDateTime, formatNumber } from '../../lib/format';
import { scanStatusLabels, scanStatusVariants } from './labels';
import { isOpenScan, scansQueryOptions, useStartScan, type ScanSummary } from './queries';
import { ScanReportSection } from './scan-report';
import { ScanScheduleCard } from './scan-schedule-card';

export default function CookieScanTab({ websiteId }: { websiteId: string }) {
  const scans = useQuery(scansQueryOptions(websiteId));

  if (scans.isPending) return <LoadingState />;
  if (scans.isError) return <ErrorState title="Scans could not be loaded." error={scans.error} />;

  const history = scans.data;
  const completed = history.filter((scan) => scan.status === 'completed');
  return (
    <div className="space-y-6">
      <ScanControlCard websiteId={websiteId} history={history} />
      <ScanScheduleCard websiteId={websiteId} />
      {completed[0] ? <ScanReportSection websiteId={websiteId} latest={completed[0]} previous={completed[1]} /> : null}
      <ScanHistoryCard history={history} />
    </div>
  );
}

function ScanControlCard({ websiteId, history }: { websiteId: string; history: ScanSummary[] }) {
  const startScan = useStartScan(websiteId);
  const open = history.find(isOpenScan);
  const newest = history[0];
  const status = open ? (
    <ScanProgress scan={open} />
  ) : newest?.status === 'failed' ? (
    <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-4 text-sm">
      <p className="font-medium">The last scan failed</p>
      <p className="mt-1 wrap-anywhere text-muted-foreground">{newest.failureReason ?? 'No reason was given.'}</p>
    </div>
  ) : newest === undefined ? (
    <p className="text-sm text-muted-foreground">This website has not been scanned yet.</p>
  ) : null;
  return (
    <Card role="region" aria-labelledby="cookie-scan-title">
      <CardHeader className="gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle id="cookie-scan-title">Cookie scan</CardTitle>
          <CardDescription>
            Visits the website in a real browser before any choice, after Accept All and after Reject All, lists every cookie and storage key
            it finds and names what happens without the visitor's consent.
          </CardDescription>
        </div>
        <Button className="self-start" disabled={open !== undefined || startScan.isPending} onClick={() => startScan.mutate()}>
          <Radar aria-hidden />
          {startScan.isPending ? 'Starting...' : 'Scan now'}
        </Button>
      </CardHeader>
      {startScan.isError || status ? (
        <CardContent className="space-y-4">
          {startScan.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {getServerMessage(startScan.error)}
            </p>
          ) : null}
          {status}
        </CardContent>
      ) : null}
    </Card>
  );
}

function ScanProgress({ scan }: { scan: ScanSummary }) {
  const { pagesDone, pagesPlanned, currentUrl } = scan.progress;
  const percent = pagesPlanned > 0 ? (pagesDone / pagesPlanned) * 100 : 0;
  return (
    <div role="status" aria-label="Scan progress" className="space-y-2 rounded-md border bg-muted/40 p-4 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={scanStatusVariants[scan.status]}>{scanStatusLabels[scan.status]}</Badge>
        <span className="font-medium">
          {scan.status === 'queued'
            ? 'Waiting for the scanner to start.'
            : pagesPlanned > 0
              ? `${formatNumber(pagesDone)} of ${formatNumber(pagesPlanned)} pages scanned`
              : 'Finding the pages to scan.'}
        </span>
      </div>
      {scan.status === 'running' ? <Progress value={percent} aria-label="Pages scanned" className="h-2" /> : null}
      {scan.status === 'running' && currentUrl ? (
        <p className="wrap-anywhere text-muted-foreground">
          Current page: <span className="text-foreground">{currentUrl}</span>
        </p>
      ) : null}
      <p className="text-xs text-muted-foreground">Requested {formatDateTime(scan.requestedAt)}. This page follows the scan as it runs.</p>
    </div>
  );
}

function scanPages(scan: ScanSummary): string {
  if (scan.pagesScanned !== null) return `${formatNumber(scan.pagesScanned)}${scan.truncated ? ' (time limit reached)' : ''}`;
  if (scan.status === 'running' && scan.progress.pagesPlanned > 0) return `${formatNumber(scan.progress.pagesDone)} of ${formatNumber(scan.progress.pagesPlanned)}`;
  return '—';
}

function ScanHistoryCard({ history }: { history: ScanSummary[] }) {
  // On a phone the four columns do not fit: each scan is a line of its own instead.
  const wide = useMediaQuery('(min-width: 640px)');
  return (
    <Card role="region" aria-labelledby="scan-history-title">
      <CardHeader>
        <CardTitle id="scan-history-title">Scan history</CardTitle>
        <CardDescription>{history.length === 0 ? 'Every scan of this website, newest first.' : `${formatCount(history.length, 'scan')}, newest first.`}</CardDescription>
      </CardHeader>
      <CardContent>
        {history.length === 0 ? (
          <EmptyState title="No scans yet" description="Scan the website to see which cookies it sets and whether it waits for consent." />
        ) : !wide ? (
          <ul className="divide-y">
            {history.map((scan) => (
              <li key={scan.scanId} className="flex items-start justify-between gap-3 py-3">
                <div className="min-w-0 space-y-1">
                  <DayAndTime value={scan.completedAt ?? scan.requestedAt} />
                  <p className="text-xs text-muted-foreground">
                    Pages: {scanPages(scan)} · Findings: {scan.status === 'completed' ? formatNumber(scan.findingCount) : '—'}
                  </p>
                  {scan.status === 'failed' && scan.failureReason ? <p className="text-xs wrap-anywhere text-muted-foreground">{scan.failureReason}</p> : null}
                </div>
                <Badge variant={scanStatusVariants[scan.status]}>{scanStatusLabels[scan.status]}</Badge>
              </li>
            ))}
          </ul>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Date</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Pages</TableHead>
                <TableHead>Findings</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {history.map((scan) => (
                <TableRow key={scan.scanId}>
                  <TableCell>
                    <DayAndTime value={scan.completedAt ?? scan.requestedAt} />
                  </TableCell>
                  <TableCell>
                    <Badge variant={scanStatusVariants[scan.status]}>{scanStatusLabels[scan.status]}</Badge>
                    {scan.status === 'failed' && scan.failureReason ? <p className="mt-1 max-w-md wrap-anywhere text-xs text-muted-foreground">{scan.failureReason}</p> : null}
                  </TableCell>
                  <TableCell>{scanPages(scan)}</TableCell>
                  <TableCell>{scan.status === 'completed' ? formatNumber(scan.findingCount) : '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
